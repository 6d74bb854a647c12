import { env, exports } from 'cloudflare:workers';
import { and, eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { OPERATOR_ONLY } from '../src/accounts/operator-only';
import { classificationReleases, jobs } from '../src/db/schema';
import { verifyBearer } from '../src/oauth/bearer';
import { startReleaseLoad } from '../src/releases/start-release-load';
import { deliver } from './helpers/export-fixtures';
import { db, makeCompany, makeSession, makeUser } from './helpers/factories';
import { call, loginAs, ORIGIN } from './helpers/http';
import { adminCaller, etimFiles, releaseDeps, uploadRelease } from './helpers/release-fixtures';
import { openSession, sessionCall } from './mcp-helpers';
import { ORIGIN as AGENT_ORIGIN, send, tokensFor } from './oauth-helpers';

/**
 * Issue 33: classification releases are shared by every company, so loading and replacing one is
 * for the service operator (users.is_operator), never for a company admin or an agent; verifying
 * and upgrading a company's own classifications stay with that company's admins; reading
 * releases stays open to every signed-in user.
 */

async function upload(cookie: string, fileName: string, body: string) {
  const res = await exports.default.fetch(
    new Request(`${ORIGIN}/api/Import/Upload?fileName=${encodeURIComponent(fileName)}`, {
      method: 'POST',
      headers: { Cookie: cookie, Origin: ORIGIN, 'Content-Type': 'text/csv' },
      body,
    }),
  );
  expect(res.status).toBe(200);
  return ((await res.json()) as { fileId: string }).fileId;
}

/** The ETIM fixture's files uploaded by the signed-in user's company, as StartReleaseLoad entries. */
async function uploadEtim(cookie: string) {
  const files = [];
  for (const [name, file] of Object.entries(etimFiles()))
    files.push({
      fileId: await upload(cookie, name, file.content),
      ...(file.language ? { language: file.language } : {}),
    });
  return files;
}

const startLoad = (cookie: string, body: unknown) =>
  call('POST', '/api/Classification/StartReleaseLoad', { cookie, headers: { Origin: ORIGIN }, body });

/** What a refused load must have left: no release of that version, no load job of the company. */
async function nothingWritten(version: string, companyId: string) {
  const releases = await db()
    .select()
    .from(classificationReleases)
    .where(and(eq(classificationReleases.system, 'ETIM'), eq(classificationReleases.version, version)));
  const loads = await db()
    .select()
    .from(jobs)
    .where(and(eq(jobs.companyId, companyId), eq(jobs.kind, 'releaseLoad')));
  expect(releases).toEqual([]);
  expect(loads).toEqual([]);
}

const version = () => `op${crypto.randomUUID().slice(0, 8)}`;

describe('who may load a classification release (REST)', () => {
  it('refuses a company admin with 403 before validation, and with a valid body writes nothing', async () => {
    const admin = await makeSession({ role: 'admin' });
    const nonsense = await startLoad(admin.cookie, { nonsense: true });
    expect([nonsense.status, nonsense.json.error]).toEqual([403, OPERATOR_ONLY]);

    const v = version();
    const files = await uploadEtim(admin.cookie);
    const refused = await startLoad(admin.cookie, { system: 'ETIM', version: v, files });
    expect([refused.status, refused.json.error]).toEqual([403, OPERATOR_ONLY]);
    const replace = await startLoad(admin.cookie, { system: 'ETIM', version: v, files, replace: true });
    expect(replace.status).toBe(403);
    await nothingWritten(v, admin.companyId);
  });

  it('refuses an editor with 403 whatever the body', async () => {
    const editor = await makeSession();
    const refused = await startLoad(editor.cookie, { system: 'ETIM', version: version(), files: [] });
    expect([refused.status, refused.json.error]).toEqual([403, OPERATOR_ONLY]);
  });

  it('lets the operator load, even as an editor of their own company; every company reads the release and verifies its own codes', async () => {
    const operator = await makeSession({ role: 'editor', operator: true });
    const v = version();
    const bad = await startLoad(operator.cookie, { system: 'ETIM', version: v, files: [] });
    expect(bad.status).toBe(400);
    const started = await startLoad(operator.cookie, {
      system: 'ETIM',
      version: v,
      files: await uploadEtim(operator.cookie),
    });
    expect(started.status, JSON.stringify(started.json)).toBe(200);
    expect(started.json).toMatchObject({ status: 'loading', jobId: expect.any(String) });
    await deliver(started.json.jobId, 1);
    const job = await call('GET', `/api/Job/GetJob?jobId=${started.json.jobId}`, { cookie: operator.cookie });
    expect(job.json).toMatchObject({ state: 'succeeded', summary: { classes: 3 } });

    // The operator is not their company's admin: the company's own operations stay refused.
    const verifyAsOperator = await call('POST', '/api/Classification/StartVerifyCodes', {
      cookie: operator.cookie,
      headers: { Origin: ORIGIN },
      body: { release: `ETIM-${v}` },
    });
    expect([verifyAsOperator.status, verifyAsOperator.json.error]).toEqual([403, 'only a company admin may do this']);

    // Another company: its editor reads the release, its admin verifies its own codes against it.
    const editor = await makeSession();
    const list = await call('GET', '/api/Classification/GetReleases', { cookie: editor.cookie });
    expect(list.json.items.find((r: { release: string }) => r.release === `ETIM-${v}`)).toMatchObject({
      status: 'loaded',
    });
    const admin = await makeSession({ role: 'admin' });
    const verify = await call('POST', '/api/Classification/StartVerifyCodes', {
      cookie: admin.cookie,
      headers: { Origin: ORIGIN },
      body: { release: `ETIM-${v}` },
    });
    expect(verify.status, JSON.stringify(verify.json)).toBe(200);
    expect(verify.json).toMatchObject({ jobId: expect.any(String) });
  });

  it('refuses the domain function to a caller without the operator flag, and to a job caller', async () => {
    const company = await makeCompany();
    const admin = await makeUser(company, { role: 'admin', operator: true });
    const files = await uploadRelease(admin, etimFiles());
    const input = { system: 'ETIM', version: version(), files, replace: false };
    await expect(startReleaseLoad(releaseDeps(), adminCaller(admin), input)).rejects.toThrow(OPERATOR_ONLY);
    await expect(startReleaseLoad(releaseDeps(), { ...admin, surface: 'job', jobId: null }, input)).rejects.toThrow(
      OPERATOR_ONLY,
    );
    await nothingWritten(input.version, company.companyId);
  });
});

describe('Account/Me answers whether the user is the operator', () => {
  it('true for the operator, false for a company admin and an editor', async () => {
    const me = async (cookie: string) => (await call('GET', '/api/Account/Me', { cookie })).json;
    expect(await me((await makeSession({ operator: true })).cookie)).toMatchObject({ operator: true, role: 'editor' });
    expect(await me((await makeSession({ role: 'admin' })).cookie)).toMatchObject({ operator: false, role: 'admin' });
    expect(await me((await makeSession()).cookie)).toMatchObject({ operator: false });
  });
});

describe("an operator's agent gets no operator rights", () => {
  it('whatever the scopes: /api/ai and MCP have no load, REST refuses the token, the domain refuses its caller', async () => {
    const company = await makeCompany();
    const user = await makeUser(company, { role: 'editor', aiSwitch: true, operator: true });
    const session = await loginAs(user.email);
    const { access_token: token } = await tokensFor({ session }, { scope: 'api mcp' });

    // Reading stays open to the agent.
    const releases = await send('GET', '/api/ai/GetReleases', { token });
    expect(releases.status).toBe(200);
    // No load operation on the agent surface ...
    const ai = await send('POST', '/api/ai/StartReleaseLoad', {
      token,
      json: { system: 'ETIM', version: '1', files: [] },
    });
    expect(ai.status).toBe(404);
    // ... and the session-cookie REST operation does not take a bearer token.
    const rest = await send('POST', '/api/Classification/StartReleaseLoad', {
      token,
      json: { system: 'ETIM', version: '1', files: [] },
    });
    expect(rest.status).toBe(401);
    // MCP lists no tool that loads, replaces or deletes a release.
    const { sessionId } = await openSession(token);
    const { response } = await sessionCall(token, sessionId, 'tools/list');
    const tools = (response.result.tools as { name: string }[]).map((t) => t.name);
    expect(tools).toContain('list_classification_releases');
    expect(tools.filter((name: string) => /release/.test(name) && /load|replace|delete|start/.test(name))).toEqual([]);

    // The caller the bearer middleware builds for this operator's token carries no operator right.
    for (const scope of ['api', 'mcp'] as const) {
      const { caller } = await verifyBearer(
        new Request(`${AGENT_ORIGIN}/api/ai/GetReleases`, { headers: { Authorization: `Bearer ${token}` } }),
        env,
        db(),
        scope,
      );
      expect(caller.operator).toBeUndefined();
      const files = await uploadRelease(user, etimFiles());
      await expect(
        startReleaseLoad(releaseDeps(), caller, { system: 'ETIM', version: version(), files, replace: false }),
      ).rejects.toThrow(OPERATOR_ONLY);
      // Even a caller forged with the flag is refused on an agent surface.
      await expect(
        startReleaseLoad(
          releaseDeps(),
          { ...caller, operator: true },
          { system: 'ETIM', version: version(), files, replace: false },
        ),
      ).rejects.toThrow(OPERATOR_ONLY);
    }
    await nothingWrittenFor(company.companyId);
  });
});

async function nothingWrittenFor(companyId: string) {
  const loads = await db()
    .select()
    .from(jobs)
    .where(and(eq(jobs.companyId, companyId), eq(jobs.kind, 'releaseLoad')));
  expect(loads).toEqual([]);
}
