import type { Mappings } from '../../../src/sync/protocol/wire';
import type { TargetAdapter, TargetConfig } from '../adapters/target-adapter';
import type { MirrorStore } from '../mirror/mirror-store';
import type { RemoteDeps } from '../upsert/upsert-remote';

/** A key's real shop for one request: its adapter, its mirror and what a batch needs. */
export interface RemoteTarget {
  config: TargetConfig;
  adapter: TargetAdapter;
  mirror: MirrorStore;
  /** The target's lookup tables as the shop answers them now (GET /mappings), asked once per request. */
  mappings(): Promise<Mappings>;
  deps: RemoteDeps;
}
