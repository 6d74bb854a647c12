import { getPlatformProxy } from 'wrangler';
import type { Bindings } from '../../src/env';

/**
 * Real local bindings (the same state `wrangler dev` uses) for Node scripts, so seeding goes
 * through the service's own domain functions. `--persist-to DIR` selects another state dir and
 * `--config FILE` another wrangler config (the lag mode's, scripts/lib/dev-lag.ts), exactly like
 * wrangler's flags of those names.
 */
export async function localBindings(argv: string[] = process.argv.slice(2)) {
  const persistTo = argValue('--persist-to', undefined, argv);
  const proxy = await getPlatformProxy<Bindings>({
    configPath: argValue('--config', 'wrangler.toml', argv),
    persist: persistTo ? { path: `${persistTo}/v3` } : true,
    remoteBindings: false,
  });
  return proxy;
}

export function argValue(name: string, fallback?: string, argv: string[] = process.argv.slice(2)): string | undefined {
  const index = argv.indexOf(name);
  return index >= 0 ? argv[index + 1] : fallback;
}
