import { createMedusaAdapter } from './medusa/medusa-adapter';
import { ReferenceAdapter } from './reference-adapter';
import { createShopifyAdapter } from './shopify/shopify-adapter';
import { createShopwareAdapter } from './shopware/adapter';
import { createVendureAdapter } from './vendure/vendure-adapter';
import {
  type AdapterDeps,
  type TargetAdapter,
  type TargetConfig,
  TargetError,
  type TargetKind,
} from './target-adapter';

/** What the connector hands every factory: the adapters' HTTP client, and D1 for the reference store. */
export interface RegistryDeps extends AdapterDeps {
  db: D1Database;
}

export type AdapterFactory = (config: TargetConfig, deps: RegistryDeps) => TargetAdapter;

/**
 * The adapters this connector can run, by kind. Each engine's module exports
 * `create<Kind>Adapter(config, deps)`; wiring one in is one line here. A kind without an entry
 * is refused by PUT /target ("this connector has no adapter for ...").
 */
export const ADAPTER_FACTORIES: Partial<Record<TargetKind, AdapterFactory>> = {
  reference: (_config, deps) => new ReferenceAdapter(deps.db),
  shopware: createShopwareAdapter,
  shopify: createShopifyAdapter,
  vendure: createVendureAdapter,
  medusa: createMedusaAdapter,
};

export function hasAdapter(kind: TargetKind): boolean {
  return ADAPTER_FACTORIES[kind] !== undefined;
}

/** The adapter for a target's kind; a kind this connector was built without throws a TargetError. */
export function createAdapter(config: TargetConfig, deps: RegistryDeps): TargetAdapter {
  const factory = ADAPTER_FACTORIES[config.kind];
  if (!factory) throw new TargetError(`this connector has no adapter for ${config.kind}`, false);
  return factory(config, deps);
}
