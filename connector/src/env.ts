import type { ShopStore } from './store/shop-store';
import type { RemoteTarget } from './targets/remote-target';

declare global {
  namespace Cloudflare {
    /**
     * connector/worker-configuration.d.ts (generated from connector/wrangler.toml by `npm run types`,
     * not committed) declares the bindings; the secret is declared here.
     */
    interface Env {
      /** JSON `{"<keyId>": "<secret>"}`: the keys the PIM may sign with (two during a rotation). */
      CONNECTOR_KEYS: string;
      /** "true" lets targets and images live on private, loopback or internal hosts: local development and tests only. */
      ALLOW_PRIVATE_TARGETS?: string;
    }
  }
}

/** The connector's bindings: the one Env of connector/wrangler.toml plus its secret; tests extend it. */
export type ConnectorBindings = Cloudflare.Env;

/** One image to fetch; everything else (URL, type) is read from the media row when it runs. */
export interface ImageMessage {
  sha256: string;
}

export interface ConnectorEnv {
  Bindings: ConnectorBindings;
  Variables: {
    /** The reference store (keys without a target). */
    store: ShopStore;
    /** The key's real shop, loaded on first use in the request; null when the key writes into the reference store. */
    remote: () => Promise<RemoteTarget | null>;
    /** The exact request body bytes the signature was checked against. */
    body: Uint8Array;
    /** Hex SHA-256 of `body` (signed, and the replay check of a batchId). */
    bodySha256: string;
    keyId: string;
  };
}
