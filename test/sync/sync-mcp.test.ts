import { describe, expect, it } from 'vitest';
import { FakeConnector } from '../helpers/fake-connector';
import { makeCatalog } from '../helpers/factories';
import { connect, product, runSync, SHOPWARE, syncDeps, syncSetup } from '../helpers/sync-fixtures';
import { callTool, openSession, sessionCall, toolError } from '../mcp-helpers';
import { makeAgentUser, tokensFor } from '../oauth-helpers';

describe('MCP tool list_sync_runs', () => {
  it("lists a connection's runs with their reports, read-only, and hides other companies' connections", async () => {
    const user = await makeAgentUser();
    const { access_token: token } = await tokensFor(user, { scope: 'mcp' });
    const { sessionId } = await openSession(token);
    const catalog = await makeCatalog(user);
    const setup = {
      company: { companyId: user.companyId, departmentId: user.departmentId },
      caller: {
        userId: user.userId,
        companyId: user.companyId,
        departmentId: user.departmentId,
        role: 'admin' as const,
        surface: 'web' as const,
      },
      catalogId: catalog.catalogId,
    };
    await product(setup, 'MCP-1');
    const connection = await connect(setup);
    const fake = new FakeConnector();
    const first = await runSync(setup, connection.connectionId, syncDeps(fake).deps);
    const second = await runSync(setup, connection.connectionId, syncDeps(fake).deps, { dryRun: true });

    const listed = (await callTool(token, sessionId, 'list_sync_runs', { connectionId: connection.connectionId }))
      .structuredContent;
    expect(listed.items.map((r: any) => [r.jobId, r.state, r.dryRun])).toEqual([
      [second.jobId, 'succeeded', true],
      [first.jobId, 'succeeded', false],
    ]);
    expect(listed.items[1].report).toMatchObject({
      created: 1,
      updated: 0,
      skipped: 0,
      quarantined: [],
      batches: { sent: 1, retried: 0 },
    });
    expect(listed.nextCursor).toBeNull();

    const { response } = await sessionCall(token, sessionId, 'tools/list');
    const tool = response.result.tools.find((t: any) => t.name === 'list_sync_runs');
    expect(tool.annotations).toMatchObject({ readOnlyHint: true, destructiveHint: false });

    const other = await syncSetup();
    const foreign = await connect(other);
    expect(
      toolError(await callTool(token, sessionId, 'list_sync_runs', { connectionId: foreign.connectionId })),
    ).toEqual({ error: 'connection not found', code: 'not_found' });
  });

  it("list_sync_connections shows each connection's shop without its credentials, and only the company's own", async () => {
    const user = await makeAgentUser();
    const { access_token: token } = await tokensFor(user, { scope: 'mcp' });
    const { sessionId } = await openSession(token);
    const catalog = await makeCatalog(user);
    const setup = {
      company: { companyId: user.companyId, departmentId: user.departmentId },
      caller: {
        userId: user.userId,
        companyId: user.companyId,
        departmentId: user.departmentId,
        role: 'admin' as const,
        surface: 'web' as const,
      },
      catalogId: catalog.catalogId,
    };
    const connection = await connect(setup, {}, { shop: SHOPWARE });
    await connect(await syncSetup());
    const result = await callTool(token, sessionId, 'list_sync_connections', {});
    expect(
      result.structuredContent.items.map((c: any) => [c.connectionId, c.shop.kind, c.shop.hasCredentials]),
    ).toEqual([[connection.connectionId, 'shopware', true]]);
    expect(JSON.stringify(result)).not.toContain(SHOPWARE.credentials.clientSecret);
  });
});
