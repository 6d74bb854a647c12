import { getPlatformProxy } from 'wrangler';
import type { Bindings } from '../../src/env';

/**
 * Real local bindings (the same state `wrangler dev` uses) for Node scripts, so seeding goes
 * through the service's own domain functions. `--persist-to DIR` selects another state dir,
 * exactly like wrangler's flag of that name.
 */
export async function localBindings(argv: string[] = process.argv.slice(2)) {
  const index = argv.indexOf('--persist-to');
  const persistTo = index >= 0 ? argv[index + 1] : undefined;
  const proxy = await getPlatformProxy<Bindings>({
    configPath: 'wrangler.toml',
    persist: persistTo ? { path: `${persistTo}/v3` } : true,
    remoteBindings: false,
  });
  return proxy;
}

export function argValue(name: string, fallback?: string, argv: string[] = process.argv.slice(2)): string | undefined {
  const index = argv.indexOf(name);
  return index >= 0 ? argv[index + 1] : fallback;
}
