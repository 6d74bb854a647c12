import type { Bindings, QueueMessage } from './env';
import { handleJobBatch } from './runners/queue-consumer';
import { scheduled } from './scheduled';

/**
 * The queue consumer as a Worker of its own (wrangler.consumer.toml; docs/scaling.md section 2,
 * docs/deploy.md): the same code as the user-facing Worker, placed near the primary database
 * (`[placement] mode = "smart"`) because imports, exports, syncs, mass edits and release loads
 * make many sequential round trips to it. It serves no users: `fetch` answers a health check
 * and 404 for everything else. Locally (`npm run dev`, tests) the one Worker in wrangler.toml
 * consumes the queue itself (src/index.ts).
 */
export default {
  fetch: (request) =>
    new URL(request.url).pathname === '/health'
      ? Response.json({ ok: true, worker: 'consumer' })
      : Response.json({ error: 'not found' }, { status: 404 }),
  queue: (batch, env) => handleJobBatch(batch, env),
  scheduled,
} satisfies ExportedHandler<Bindings, QueueMessage>;
