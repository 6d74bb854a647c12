import { exports } from 'cloudflare:workers';
import { describe, expect, it } from 'vitest';
import { makeSession } from './helpers/factories';
import { deliver } from './helpers/export-fixtures';
import { call, ORIGIN } from './helpers/http';
import { etimFiles } from './helpers/release-fixtures';

async function upload(cookie: string, fileName: string, body: string) {
  const res = await exports.default.fetch(
    new Request(`${ORIGIN}/api/Import/Upload?fileName=${encodeURIComponent(fileName)}`, {
      method: 'POST',
      headers: { Cookie: cookie, Origin: ORIGIN, 'Content-Type': 'text/csv' },
      body,
    }),
  );
  return ((await res.json()) as { fileId: string }).fileId;
}

describe('Classification release REST operations', () => {
  it('the operator loads an ETIM release through the queue consumer; every user searches it and reads class features', async () => {
    const admin = await makeSession({ role: 'admin', operator: true });
    const version = `r${crypto.randomUUID().slice(0, 8)}`;
    const files = [];
    for (const [name, file] of Object.entries(etimFiles()))
      files.push({
        fileId: await upload(admin.cookie, name, file.content),
        ...(file.language ? { language: file.language } : {}),
      });
    const started = await call('POST', '/api/Classification/StartReleaseLoad', {
      cookie: admin.cookie,
      headers: { Origin: ORIGIN },
      body: { system: 'ETIM', version, files },
    });
    expect(started.status).toBe(200);
    expect(started.json).toMatchObject({ status: 'loading', jobId: expect.any(String), releaseId: expect.any(Number) });
    await deliver(started.json.jobId, 1);
    const job = await call('GET', `/api/Job/GetJob?jobId=${started.json.jobId}`, { cookie: admin.cookie });
    expect(job.json).toMatchObject({ state: 'succeeded', summary: { classes: 3, classFeatureValues: 2 } });

    const editor = await makeSession();
    const search = await call('GET', `/api/Classification/SearchReleaseClasses?release=ETIM-${version}&q=mcb`, {
      cookie: editor.cookie,
    });
    expect(search.json.items.map((c: { code: string; name: string }) => [c.code, c.name])).toEqual([
      ['EC000042', 'Miniature circuit breaker (MCB)'],
    ]);
    const features = await call(
      'GET',
      `/api/Classification/GetReleaseClassFeatures?release=ETIM-${version}&classCode=EC000905&lang=de`,
      { cookie: editor.cookie },
    );
    expect(features.json.class.name).toBe('Kabelbinder');
    expect(features.json.features).toHaveLength(4);
    const releases = await call('GET', '/api/Classification/GetReleases', { cookie: editor.cookie });
    expect(releases.json.items.find((r: { release: string }) => r.release === `ETIM-${version}`)).toMatchObject({
      status: 'loaded',
      languages: ['en', 'de'],
      counts: { classes: 3, features: 4, values: 2, units: 2, synonyms: 2, classFeatures: 4, classFeatureValues: 2 },
    });
  });

  it('answers 403 to an editor whatever the body, and 404 for a class or release that is not loaded', async () => {
    const editor = await makeSession();
    const refused = await call('POST', '/api/Classification/StartReleaseLoad', {
      cookie: editor.cookie,
      headers: { Origin: ORIGIN },
      body: { nonsense: true },
    });
    expect(refused.status).toBe(403);
    expect(refused.json.error).toBe('only the service operator may do this');
    const missing = await call('GET', '/api/Classification/SearchReleaseClasses?release=ETIM-0.0&q=x', {
      cookie: editor.cookie,
    });
    expect([missing.status, missing.json.error]).toEqual([404, 'release ETIM-0.0 is not loaded']);
  });
});
