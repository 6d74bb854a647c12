/**
 * Runs the official MCP conformance suite (`@modelcontextprotocol/conformance`, server mode)
 * against {mcp_url} behind the token-adding proxy. Scenarios that need the suite's reference
 * "everything server" fixtures are listed in conformance-expected-failures.yml with a reason;
 * every other scenario must pass. The exit code is the suite's: 0 when the results match.
 *
 *   MCP_URL        default http://127.0.0.1:8787/mcp (`npm run dev`)
 *   MCP_TOKEN      an access token for MCP_URL with scope mcp; or, without it,
 *   MCP_EMAIL / MCP_PASSWORD  a demo account to authorize (default editor@demo.test / demo-password-1)
 */
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { tokenForUser, type Tokens } from './conformance-oauth';
import { startTokenProxy } from './conformance-proxy';

export const EXPECTED_FAILURES = join(import.meta.dirname, 'conformance-expected-failures.yml');

/**
 * Runs the suite; resolves with its exit code and combined output. `echo: false` keeps the
 * suite's per-scenario lines ("x passed, y failed", expected failures included) out of a test
 * run's log, where CI would read them as the run's own result.
 */
export async function runConformance(
  mcpUrl: string,
  tokens: Tokens,
  extraArgs: string[] = [],
  options: { echo?: boolean } = {},
): Promise<{ code: number; output: string }> {
  const echo = options.echo ?? true;
  const proxy = await startTokenProxy(mcpUrl, tokens);
  try {
    const bin = join(
      import.meta.dirname,
      '..',
      'node_modules',
      '@modelcontextprotocol',
      'conformance',
      'dist',
      'index.js',
    );
    const child = spawn(
      process.execPath,
      [bin, 'server', '--url', proxy.url, '--expected-failures', EXPECTED_FAILURES, ...extraArgs],
      { stdio: ['ignore', 'pipe', 'pipe'] },
    );
    let output = '';
    child.stdout.on('data', (d) => {
      output += d;
      if (echo) process.stdout.write(d);
    });
    child.stderr.on('data', (d) => {
      output += d;
      if (echo) process.stderr.write(d);
    });
    const code = await new Promise<number>((resolve) => child.on('close', (c) => resolve(c ?? 1)));
    return { code, output };
  } finally {
    await proxy.close();
  }
}

async function main() {
  const mcpUrl = process.env.MCP_URL ?? 'http://127.0.0.1:8787/mcp';
  const tokens: Tokens = process.env.MCP_TOKEN
    ? { accessToken: process.env.MCP_TOKEN, clientId: '', tokenEndpoint: '' }
    : await tokenForUser(
        mcpUrl,
        process.env.MCP_EMAIL ?? 'editor@demo.test',
        process.env.MCP_PASSWORD ?? 'demo-password-1',
      );
  const { code } = await runConformance(mcpUrl, tokens, process.argv.slice(2));
  process.exit(code);
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) await main();
