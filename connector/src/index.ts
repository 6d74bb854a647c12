import { app } from './app';
import type { ConnectorBindings, ImageMessage } from './env';
import { deadLetterImages, processImageBatch, requeueStaleImages } from './media/image-queue';
import { D1ShopStore } from './store/d1-store';

/** The shop connector Worker (connector/README.md): HTTP API, image queue, re-queue sweep. */
export default {
  fetch: app.fetch,

  async queue(batch, env, _ctx) {
    const store = new D1ShopStore(env.DB);
    if (batch.queue.endsWith('-dlq')) await deadLetterImages(batch, store);
    else await processImageBatch(batch, { store, bucket: env.MEDIA });
  },

  async scheduled(_controller, env, _ctx) {
    await requeueStaleImages(new D1ShopStore(env.DB), env.IMAGE_QUEUE);
  },
} satisfies ExportedHandler<ConnectorBindings, ImageMessage>;
