import { migrate, type Seeded, seedSyntheticCatalog } from '../../scripts/lib/dev-server';

export type { Seeded } from '../../scripts/lib/dev-server';

/** Migrates a fresh state directory and seeds a synthetic catalog of `masters` master products into it. */
export async function seedSynthetic(dir: string, masters: number): Promise<Seeded> {
  await migrate(dir);
  return seedSyntheticCatalog(dir, masters);
}

/** Signs in at `baseUrl` and returns the session cookie pair (`Service.Cookie=...`). */
export async function login(baseUrl: string, account: { email: string; password: string }): Promise<string> {
  const res = await fetch(`${baseUrl}/api/Account/Login`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ email: account.email, password: account.password }),
  });
  const cookie = res.headers.get('set-cookie')?.split(';')[0];
  if (res.status !== 200 || !cookie) throw new Error(`login failed: ${res.status} ${await res.text()}`);
  return cookie;
}

/** A JSON call with the session: GET without a body, POST with one; anything but 200 throws. */
export type ApiCall = (path: string, body?: unknown) => Promise<any>;

/** Signs in and returns a caller for `${baseUrl}/api` paths such as `/Catalog/GetProducts?...`. */
export async function apiSession(baseUrl: string, account: { email: string; password: string }) {
  const cookie = await login(baseUrl, account);
  const call: ApiCall = async (path, body) => {
    const res = await fetch(`${baseUrl}/api${path}`, {
      method: body === undefined ? 'GET' : 'POST',
      headers: { Cookie: cookie, 'Content-Type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    if (res.status !== 200) throw new Error(`${path}: ${res.status} ${await res.text()}`);
    return res.json();
  };
  return { cookie, call };
}

/** Polls GetJob every `intervalMs` until the job has ended, and returns it (whatever its end state). */
export async function waitForJob(call: ApiCall, jobId: string, intervalMs = 500): Promise<any> {
  for (;;) {
    await new Promise((r) => setTimeout(r, intervalMs));
    const job = await call(`/Job/GetJob?jobId=${jobId}`);
    if (job.state !== 'queued' && job.state !== 'running') return job;
  }
}
