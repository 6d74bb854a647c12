import { Hono } from 'hono';
import { defaultMapping } from '../../../src/sync/protocol/target';
import { hasAdapter } from '../adapters/registry';
import type { TargetConfig } from '../adapters/target-adapter';
import type { ConnectorEnv } from '../env';
import { ConnectorError } from '../http/connector-error';
import { connectorKeys } from '../http/signature';
import { adapterFor, unsealOrConflict } from '../targets/request-target';
import { targetConfigSchema, toTargetConfig } from '../targets/target-config';
import { asTargetFailure } from '../targets/target-errors';
import { deleteTarget, loadTarget, saveTarget, unsealTarget } from '../targets/target-store';
import { allowsPrivateTargets, refusedUrlReason } from '../targets/url-guard';

function parseConfig(body: Uint8Array): TargetConfig {
  let json: unknown;
  try {
    json = JSON.parse(new TextDecoder('utf-8', { fatal: true, ignoreBOM: false }).decode(body));
  } catch {
    throw new ConnectorError('bad_request', 'the body must be JSON');
  }
  const result = targetConfigSchema.safeParse(json);
  if (!result.success) {
    const issue = result.error.issues[0]!;
    throw new ConnectorError('bad_request', `${issue.path.join('.') || 'body'}: ${issue.message}`);
  }
  return toTargetConfig(result.data);
}

/** A config as PUT /target accepts it: a kind this connector has an adapter for, a URL the SSRF rule lets through. */
function checkedConfig(body: Uint8Array, env: Cloudflare.Env): TargetConfig {
  const config = parseConfig(body);
  if (!hasAdapter(config.kind))
    throw new ConnectorError('bad_request', `kind: this connector has no adapter for ${config.kind}`);
  if (config.kind !== 'reference') {
    const refused = refusedUrlReason(config.url, allowsPrivateTargets(env.ALLOW_PRIVATE_TARGETS));
    if (refused) throw new ConnectorError('bad_request', `url: ${refused}`);
  }
  return config;
}

/** The probe of a config given in the body, never stored, with the counts of its lookup tables. */
async function probeGiven(env: Cloudflare.Env, config: TargetConfig) {
  const adapter = adapterFor(env, config);
  const probe = await adapter.probe();
  const { manufacturers, units, taxes } = await adapter.mappings();
  return { ...probe, mappings: { manufacturers: manufacturers.length, units: units.length, taxes: taxes.length } };
}

/**
 * The key's target (docs/shops.md, "Targets and credentials"): which shop the key that signs
 * the request writes into. Credentials go in and are never answered; without a target the key
 * writes into the reference store.
 */
export const targetRoutes = new Hono<ConnectorEnv>()
  .put('/target', async (c) => {
    const config = checkedConfig(c.get('body'), c.env);
    const keyId = c.get('keyId');
    await saveTarget(c.env.DB, keyId, connectorKeys(c.env.CONNECTOR_KEYS)[keyId]!, config);
    return c.json(
      {
        kind: config.kind,
        url: config.url || null,
        mapping: config.mapping,
        hasCredentials: Object.keys(config.credentials).length > 0,
      },
      200,
      { 'Cache-Control': 'no-store' },
    );
  })
  .get('/target', async (c) => {
    const keyId = c.get('keyId');
    const stored = await loadTarget(c.env.DB, keyId);
    if (!stored) throw new ConnectorError('not_found', 'no target: this key writes into the reference store');
    const config = await unsealTarget(stored, connectorKeys(c.env.CONNECTOR_KEYS)[keyId]!);
    return c.json(
      {
        kind: stored.kind,
        url: stored.url || null,
        mapping: stored.mapping,
        hasCredentials: config !== null && Object.keys(config.credentials).length > 0,
        updatedAt: stored.updatedAt,
      },
      200,
      { 'Cache-Control': 'no-store' },
    );
  })
  .delete('/target', async (c) => {
    const deleted = await deleteTarget(c.env.DB, c.get('keyId'));
    if (!deleted) throw new ConnectorError('not_found', 'no target: this key writes into the reference store');
    return c.body(null, 204);
  })
  // With a body (a config as PUT /target takes it, the same checks): that shop is probed and
  // nothing is stored, so the PIM can test settings before saving them; the answer adds the
  // counts of the shop's lookup tables (GET /mappings answers the stored target's).
  .post('/target/test', async (c) => {
    const body = c.get('body');
    if (body.byteLength > 0) {
      const given = checkedConfig(body, c.env);
      try {
        return c.json(await probeGiven(c.env, given), 200, { 'Cache-Control': 'no-store' });
      } catch (err) {
        throw asTargetFailure(err, { retryable: false });
      }
    }
    const keyId = c.get('keyId');
    const stored = await loadTarget(c.env.DB, keyId);
    const config = stored
      ? await unsealOrConflict(stored, connectorKeys(c.env.CONNECTOR_KEYS)[keyId]!)
      : { kind: 'reference' as const, url: '', credentials: {}, mapping: defaultMapping('reference') };
    try {
      return c.json(await adapterFor(c.env, config).probe(), 200, { 'Cache-Control': 'no-store' });
    } catch (err) {
      throw asTargetFailure(err, { retryable: false });
    }
  });
