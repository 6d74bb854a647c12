import { describe, expect, it } from 'vitest';
import { makeSession } from './helpers/factories';
import { call } from './helpers/http';
import { loadRelease, proficlassFiles } from './helpers/release-fixtures';
import { etimIxfFile } from './helpers/release-ixf-fixture';
import { makeAgentUser, send, tokensFor } from './oauth-helpers';

const version = () => `g${crypto.randomUUID().slice(0, 8)}`;

/** Loads the IXF fixture (groups EG000017 with English and German names, EG000020 English only). */
async function ixfRelease() {
  const admin = await makeSession({ role: 'admin' });
  const v = version();
  const { job } = await loadRelease(admin.tenant, {
    system: 'ETIM',
    version: v,
    format: 'ETIM_XML',
    files: etimIxfFile(),
  });
  expect(job!.state).toBe('succeeded');
  return `ETIM-${v}`;
}

describe('GET Classification/GetReleaseGroups', () => {
  it("lists a release's groups by code with names in the asked language, else the release's first", async () => {
    const release = await ixfRelease();
    const editor = await makeSession();
    const german = await call('GET', `/api/Classification/GetReleaseGroups?release=${release}&lang=de`, {
      cookie: editor.cookie,
    });
    expect(german.status).toBe(200);
    expect(german.json).toEqual({
      release,
      items: [
        { code: 'EG000017', name: 'Installationsmaterial', lang: 'de-DE' },
        { code: 'EG000020', name: 'Cable management', lang: 'en' },
      ],
    });
    const plain = await call('GET', `/api/Classification/GetReleaseGroups?release=${release}`, {
      cookie: editor.cookie,
    });
    expect(plain.json.items.map((g: { name: string }) => g.name)).toEqual([
      'Installation material',
      'Cable management',
    ]);
  });

  it('answers codes that SearchReleaseClasses takes as its group filter', async () => {
    const release = await ixfRelease();
    const editor = await makeSession();
    const groups = await call('GET', `/api/Classification/GetReleaseGroups?release=${release}`, {
      cookie: editor.cookie,
    });
    const found: Record<string, string[]> = {};
    for (const { code } of groups.json.items as { code: string }[]) {
      const search = await call(
        'GET',
        `/api/Classification/SearchReleaseClasses?release=${release}&q=EC&group=${code}`,
        {
          cookie: editor.cookie,
        },
      );
      found[code] = search.json.items.map((c: { code: string }) => c.code);
    }
    expect(found).toEqual({ EG000017: ['EC000905'], EG000020: ['EC000042'] });
  });

  it('answers an empty list for a release without groups', async () => {
    const admin = await makeSession({ role: 'admin' });
    const v = version();
    await loadRelease(admin.tenant, { system: 'PROFICLASS', version: v, files: proficlassFiles() });
    const res = await call('GET', `/api/Classification/GetReleaseGroups?release=PROFICLASS-${v}`, {
      cookie: admin.cookie,
    });
    expect([res.status, res.json]).toEqual([200, { release: `PROFICLASS-${v}`, items: [] }]);
  });

  it('answers 404 for a release that is not loaded and 400 for a bad release name or parameter', async () => {
    const editor = await makeSession();
    const missing = await call('GET', '/api/Classification/GetReleaseGroups?release=ETIM-0.0', {
      cookie: editor.cookie,
    });
    expect([missing.status, missing.json.error]).toEqual([404, 'release ETIM-0.0 is not loaded']);
    const bad = await call('GET', '/api/Classification/GetReleaseGroups?release=ETIM', { cookie: editor.cookie });
    expect(bad.status).toBe(400);
    expect(bad.json.error).toMatch(/release/);
    const unknown = await call('GET', '/api/Classification/GetReleaseGroups?release=ETIM-9.0&group=EG000017', {
      cookie: editor.cookie,
    });
    expect(unknown.status).toBe(400);
    expect(unknown.json.error).toMatch(/group/);
  });

  it('answers 401 without a session', async () => {
    const res = await call('GET', '/api/Classification/GetReleaseGroups?release=ETIM-9.0');
    expect(res.status).toBe(401);
    expect(res.json.error).toEqual(expect.any(String));
  });

  it('is read by an agent through /api/ai as through REST', async () => {
    const release = await ixfRelease();
    const user = await makeAgentUser({ aiSwitch: true });
    const token = (await tokensFor(user, { scope: 'api' })).access_token;
    const res = await send('GET', `/api/ai/GetReleaseGroups?release=${release}&lang=de`, { token });
    expect(res.status, res.text).toBe(200);
    expect(res.json.items.map((g: { code: string; name: string }) => [g.code, g.name])).toEqual([
      ['EG000017', 'Installationsmaterial'],
      ['EG000020', 'Cable management'],
    ]);
    const missing = await send('GET', '/api/ai/GetReleaseGroups?release=ETIM-0.0', { token });
    expect([missing.status, missing.json.error]).toEqual([404, 'release ETIM-0.0 is not loaded']);
  });
});
