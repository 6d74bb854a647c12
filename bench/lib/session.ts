import type { Job } from './types';

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

/**
 * A JSON call with the session: GET without a body, POST with one; anything but 200 throws.
 * `T` is the answer's shape as the caller relies on it (unchecked: the contract tests check it).
 */
export type ApiCall = <T = unknown>(path: string, body?: unknown) => Promise<T>;

/** Signs in and returns a caller for `${baseUrl}/api` paths such as `/Catalog/GetProducts?...`. */
export async function apiSession(baseUrl: string, account: { email: string; password: string }) {
  const cookie = await login(baseUrl, account);
  const call: ApiCall = async <T>(path: string, body?: unknown) => {
    const res = await fetch(`${baseUrl}/api${path}`, {
      method: body === undefined ? 'GET' : 'POST',
      headers: { Cookie: cookie, 'Content-Type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    if (res.status !== 200) throw new Error(`${path}: ${res.status} ${await res.text()}`);
    return (await res.json()) as T;
  };
  return { cookie, call };
}

/** Polls GetJob every `intervalMs` until the job has ended, and returns it (whatever its end state). */
export async function waitForJob(call: ApiCall, jobId: string, intervalMs = 500): Promise<Job> {
  for (;;) {
    await new Promise((r) => setTimeout(r, intervalMs));
    const job = await call<Job>(`/Job/GetJob?jobId=${jobId}`);
    if (job.state !== 'queued' && job.state !== 'running') return job;
  }
}
