import type { Mappings } from '../../../src/sync/protocol/wire';
import { createAdapter } from '../adapters/registry';
import { type TargetAdapter, type TargetConfig, TargetError } from '../adapters/target-adapter';
import type { RemoteTarget } from './remote-target';
import { createTargetHttp } from '../adapters/target-http';
import { ConnectorError } from '../http/connector-error';
import { connectorKeys } from '../http/signature';
import { createLinkBytes, createMediaBytes } from '../media/media-bytes';
import { createPictureCheck } from '../media/picture-revalidation';
import { MirrorStore } from '../mirror/mirror-store';
import { loadTarget, type StoredTarget, unsealTarget } from './target-store';
import { allowsPrivateTargets, refusedUrlReason } from './url-guard';

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** A fetch for adapters that applies the SSRF rule to every URL they call, not only the base URL. */
function guardedFetch(allowPrivate: boolean): typeof fetch {
  return (input, init) => {
    const url = input instanceof Request ? input.url : String(input);
    const refused = refusedUrlReason(url, allowPrivate);
    if (refused) return Promise.reject(new TargetError(`the shop URL is refused: ${refused}`, false));
    return fetch(input, init);
  };
}

/** An adapter for a config, built the same way for every route (HTTP client, SSRF rule, D1 for the reference store). */
export function adapterFor(env: Cloudflare.Env, config: TargetConfig): TargetAdapter {
  const http = createTargetHttp({ fetch: guardedFetch(allowsPrivateTargets(env.ALLOW_PRIVATE_TARGETS)), sleep });
  return createAdapter(config, { http, db: env.DB });
}

/** The stored config with its credentials; 409 when they were sealed under a secret since rotated. */
export async function unsealOrConflict(stored: StoredTarget, secret: string): Promise<TargetConfig> {
  const config = await unsealTarget(stored, secret);
  if (config) return config;
  throw new ConnectorError(
    'conflict',
    "the target's credentials were sealed under this key's previous secret; send PUT /target again",
  );
}

/**
 * The key's target for this request, or null when the key writes into the reference store (no
 * target, or the target kind `reference`, whose tables are their own mirror).
 */
export async function remoteTargetOf(env: Cloudflare.Env, keyId: string): Promise<RemoteTarget | null> {
  const stored = await loadTarget(env.DB, keyId);
  if (!stored || stored.kind === 'reference') return null;
  const config = await unsealOrConflict(stored, connectorKeys(env.CONNECTOR_KEYS)[keyId]!);
  const adapter = adapterFor(env, config);
  const mirror = new MirrorStore(env.DB, keyId);
  // Once per request each: what the adapter may have kept (a batch's validation), and what the shop answers now.
  let kept: Promise<Mappings> | null = null;
  let fresh: Promise<Mappings> | null = null;
  const keptMappings = () => {
    kept ??= adapter.mappings({ cached: true });
    return kept;
  };
  const freshMappings = () => {
    fresh ??= adapter.mappings();
    return fresh;
  };
  return {
    config,
    adapter,
    mirror,
    mappings: freshMappings,
    deps: {
      mirror,
      adapter,
      mapping: config.mapping,
      mappings: keptMappings,
      freshMappings,
      mediaBytes: createMediaBytes({
        bucket: env.MEDIA,
        fetcher: (input, init) => fetch(input, init),
        allowPrivate: allowsPrivateTargets(env.ALLOW_PRIVATE_TARGETS),
      }),
      refusedUrl: (url: string) => refusedUrlReason(url, allowsPrivateTargets(env.ALLOW_PRIVATE_TARGETS)),
      linkBytes: createLinkBytes({
        fetcher: (input, init) => fetch(input, init),
        allowPrivate: allowsPrivateTargets(env.ALLOW_PRIVATE_TARGETS),
      }),
      pictureCheck: createPictureCheck({
        db: env.DB,
        keyId,
        fetcher: (input, init) => fetch(input, init),
        allowPrivate: allowsPrivateTargets(env.ALLOW_PRIVATE_TARGETS),
      }),
      sleep,
    },
  };
}
