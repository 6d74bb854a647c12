import { createApp } from './app';
import type { Bindings, QueueMessage } from './env';
import { handleJobBatch } from './runners/queue-consumer';
import { scheduled } from './scheduled';

export { RateLimiter } from './http/rate-limit';
export { McpSession } from './mcp/session-agent';
export { WebhookDispatcher } from './webhooks/dispatcher-object';

const app = createApp();

export default {
  fetch: app.fetch,
  queue: (batch, env) => handleJobBatch(batch, env),
  scheduled,
} satisfies ExportedHandler<Bindings, QueueMessage>;
