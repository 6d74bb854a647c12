/**
 * The official MCP conformance suite against the running server (behind the token-adding
 * proxy): every scenario passes except those listed, with reasons, in
 * scripts/conformance-expected-failures.yml (they need the suite's "everything server" fixtures).
 */
import { describe, expect, inject, it } from 'vitest';
import { runConformance } from '../../scripts/conformance';
import { tokenForUser } from '../../scripts/conformance-oauth';

describe('MCP conformance suite', () => {
  it('passes every scenario that applies to this server', async () => {
    const mcpUrl = `${inject('baseUrl')}/mcp`;
    const tokens = await tokenForUser(mcpUrl, 'editor@demo.test', 'demo-password-1');
    const { code, output } = await runConformance(mcpUrl, tokens, [], { echo: false });
    expect(output).toContain('Baseline check passed');
    expect(output).toMatch(/server-initialize: 1 passed, 0 failed/);
    expect(output).toMatch(/dns-rebinding-protection: 2 passed, 0 failed/);
    expect(code).toBe(0);
  }, 600_000);
});
