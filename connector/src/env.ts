import type { ShopStore } from './store/shop-store';

/** Bindings of connector/wrangler.toml, plus the CONNECTOR_KEYS secret. */
export interface ConnectorBindings {
  DB: D1Database;
  MEDIA: R2Bucket;
  IMAGE_QUEUE: Queue<ImageMessage>;
  /** JSON `{"<keyId>": "<secret>"}`: the keys the PIM may sign with (two during a rotation). */
  CONNECTOR_KEYS: string;
}

/** One image to fetch; everything else (URL, type) is read from the media row when it runs. */
export interface ImageMessage {
  sha256: string;
}

export interface ConnectorEnv {
  Bindings: ConnectorBindings;
  Variables: {
    store: ShopStore;
    /** The exact request body bytes the signature was checked against. */
    body: Uint8Array;
    keyId: string;
  };
}
