import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

/**
 * Vite's dependency optimizer settings for the Workers-pool suites: every package that src/ and
 * the Workers-pool tests import is bundled once per run, so each test file loads a handful of
 * modules instead of the several hundred files of zod, drizzle-orm, hono, agents and the MCP SDK
 * (workerd fetches each module of a fresh test file from Node one request at a time; this took
 * about a quarter of each file's start-up). The list is read from the sources, not kept by hand:
 * a subpath left out (`hono/http-exception`, say) would load a second copy of its package beside
 * the bundled one and break `instanceof` between them.
 */
export function prebundledDependencies(roots: string[]) {
  return {
    optimizer: {
      ssr: {
        enabled: true,
        include: [...new Set(roots.flatMap((root) => bareImports(root)))].sort(),
        // Node and workerd built-ins stay imports; `mimetext` (reached through agents' email
        // helpers) only ships a Node build, which workerd never loads from these tests.
        exclude: ['mimetext'],
        rolldownOptions: { external: [/^node:/, /^cloudflare:/] },
      },
    },
  };
}

const IMPORT = /(?:\bfrom\s+|\bimport\(\s*)'((?:@[\w.-]+\/)?[a-z][\w.-]*(?:\/[\w./-]+)?)'/g;
const TYPE_IMPORT = /import\s+type\s[^;]*;/g;
const NOT_A_PACKAGE = /^(node:|cloudflare:|vitest|@cloudflare\/vitest-plugin)/;

function bareImports(dir: string): string[] {
  const found: string[] = [];
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) {
      if (entry.name !== 'e2e' && entry.name !== 'node_modules') found.push(...bareImports(path));
    } else if (entry.name.endsWith('.ts') || entry.name.endsWith('.tsx')) {
      const code = readFileSync(path, 'utf8').replace(TYPE_IMPORT, '');
      for (const [, name = ''] of code.matchAll(IMPORT)) {
        if (!NOT_A_PACKAGE.test(name)) found.push(name);
      }
    }
  }
  return found;
}
