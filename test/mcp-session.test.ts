import { describe, expect, it } from 'vitest';
import { makeAgentUser, tokensFor } from './oauth-helpers';
import { callTool, LEGACY_VERSION, mcp, openSession, sessionCall } from './mcp-helpers';

describe('MCP sessions (2025 revisions)', () => {
  it('opens a session in a Durable Object and lists the tools', async () => {
    const user = await makeAgentUser();
    const { access_token: token } = await tokensFor(user);
    const { sessionId, init } = await openSession(token);
    expect(init.headers.get('Content-Type')).toContain('text/event-stream');
    expect(init.messages[0].result).toMatchObject({ protocolVersion: LEGACY_VERSION, serverInfo: { name: 'pim-service', version: '1.0.0' } });
    const { response } = await sessionCall(token, sessionId, 'tools/list');
    expect(response.result.tools.map((t: any) => t.name)).toContain('get_statistics');
    const stats = await callTool(token, sessionId, 'get_statistics');
    expect(stats.structuredContent).toEqual({ catalogs: 0, categories: 0, products: 0 });
  });
});
