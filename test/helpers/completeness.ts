import { enableLanguages, makeCatalog, makeSession } from './factories';
import { call } from './http';

/** Waits for a job to end (the queue consumer runs it in the pool). */
export async function waitForJob(cookie: string, jobId: string) {
  for (let i = 0; i < 150; i++) {
    const res = await call('GET', `/api/Job/GetJob?jobId=${jobId}`, { cookie });
    if (['succeeded', 'failed', 'cancelled'].includes(res.json.state)) return res.json;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`job ${jobId} did not finish`);
}

export const post = (cookie: string, path: string, body: unknown) => call('POST', path, { cookie, body });
export const get = (cookie: string, path: string) => call('GET', path, { cookie });

/** A company with German and English, an admin session and a catalog in German publishing both. */
export async function shopSetup() {
  const admin = await makeSession({ role: 'admin' });
  await enableLanguages(admin.companyId, ['eng']);
  const catalog = await makeCatalog(admin.tenant, { language: 'deu', languages: ['deu', 'eng'] });
  return { admin, catalog };
}
