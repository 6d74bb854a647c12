import { cachedSession, dropSession, keepSession } from '../common/session-cache';
import { TargetError } from '../target-adapter';
import type { TargetHttp } from '../target-http';

/**
 * Vendure's Admin GraphQL API over the adapters' one HTTP client: sign-in (the `login` mutation,
 * whose session token comes back in the `vendure-auth-token` header; or a token given as the
 * credential), one new sign-in when the session has expired, multipart uploads (the GraphQL
 * multipart request spec Vendure's `createAssets` reads), and Vendure's two kinds of refusal
 * turned into one: GraphQL errors and `ErrorResult` members of a result union both become a
 * `VendureRefusal` with Vendure's own message, which the writer turns into the record's failure.
 */
export class VendureRefusal extends Error {
  constructor(
    message: string,
    /** Vendure's `errorCode` or GraphQL error code, when it gave one. */
    readonly code: string | null = null,
  ) {
    super(message);
  }
}

export interface VendureCredentials {
  username?: string;
  password?: string;
  token?: string;
}

interface GraphQLAnswer<T> {
  data?: T;
  errors?: { message: string; extensions?: { code?: string } }[];
}

export interface VendureClient {
  query<T>(document: string, variables?: Record<string, unknown>): Promise<T>;
  /**
   * A mutation that creates (products, option groups, variants): sent once, as the shop may
   * have run it when its answer is lost (`TargetRequest.once`); throws `OutcomeUnknown` then.
   */
  create<T>(document: string, variables?: Record<string, unknown>): Promise<T>;
  /** `createAssets` with files: one multipart request, the files in input order; sent once like `create`. */
  upload<T>(document: string, input: Record<string, unknown>[], files: { blob: Blob; fileName: string }[]): Promise<T>;
}

const LOGIN = `mutation Login($username: String!, $password: String!) {
  login(username: $username, password: $password, rememberMe: true) {
    ... on CurrentUser { id }
    ... on ErrorResult { errorCode message }
  }
}`;

export function createVendureClient(url: string, credentials: VendureCredentials, http: TargetHttp): VendureClient {
  const user = credentials.username ?? '';
  const password = credentials.password ?? '';
  // A session from an earlier request with the same credentials: no second `login` (common/session-cache.ts).
  let token: string | null =
    credentials.token ?? (user && password ? cachedSession('vendure', url, user, password) : null);

  async function signIn(): Promise<string> {
    if (!credentials.username || !credentials.password) {
      throw new TargetError('the Vendure token was refused and no username and password are set', false, 401);
    }
    const response = await http.send({
      method: 'POST',
      url,
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        query: LOGIN,
        variables: { username: credentials.username, password: credentials.password },
      }),
    });
    const answer = await readAnswer<{ login: { id?: string; message?: string } }>(response, false);
    if (answer === EXPIRED) throw new TargetError('Vendure refused the username or password', false, 401);
    const issued = response.headers.get('vendure-auth-token');
    if (!answer.data?.login?.id || !issued) {
      throw new TargetError('Vendure refused the username or password', false, 401);
    }
    token = issued;
    keepSession('vendure', url, credentials.username, credentials.password, issued);
    return issued;
  }

  async function post<T>(body: () => BodyInit, json: boolean, once = false): Promise<T> {
    for (let attempt = 0; attempt < 2; attempt++) {
      const bearer = token ?? (await signIn());
      const response = await http.send({
        method: 'POST',
        url,
        headers: { authorization: `Bearer ${bearer}`, ...(json ? { 'content-type': 'application/json' } : {}) },
        body: body(),
        once,
      });
      const answer = await readAnswer<T>(response, attempt === 0 && !!credentials.username);
      const forbidden = answer === EXPIRED || answer.errors?.some((e) => e.extensions?.code === 'FORBIDDEN');
      if (forbidden && attempt === 0 && credentials.username) {
        dropSession('vendure', url, user, bearer);
        token = null;
        continue;
      }
      if (answer === EXPIRED) throw new TargetError('Vendure refused the credentials', false, 401);
      if (forbidden) throw new TargetError('Vendure refused the credentials for this operation', false, 403);
      if (answer.errors?.length) {
        const first = answer.errors[0];
        throw new VendureRefusal(answer.errors.map((e) => e.message).join('; '), first?.extensions?.code ?? null);
      }
      if (!answer.data) throw new TargetError('Vendure answered without data', true, response.status);
      return answer.data;
    }
    throw new TargetError('Vendure refused the credentials', false, 401);
  }

  return {
    query: (document, variables = {}) => post(() => JSON.stringify({ query: document, variables }), true),
    create: (document, variables = {}) => post(() => JSON.stringify({ query: document, variables }), true, true),
    upload: (document, input, files) =>
      post(
        () => {
          const form = new FormData();
          form.set('operations', JSON.stringify({ query: document, variables: { input } }));
          form.set(
            'map',
            JSON.stringify(Object.fromEntries(files.map((_, i) => [String(i), [`variables.input.${i}.file`]]))),
          );
          files.forEach((f, i) => {
            form.set(String(i), f.blob, f.fileName);
          });
          return form;
        },
        false,
        true,
      ),
  };
}

/** A 401/403 answer to a session that may have expired: signed in once more before it counts as refused. */
const EXPIRED = Symbol('expired');

async function readAnswer<T>(response: Response, mayRetry: boolean): Promise<GraphQLAnswer<T> | typeof EXPIRED> {
  if (response.status === 401 || response.status === 403) {
    await response.body?.cancel().catch(() => undefined);
    if (mayRetry) return EXPIRED;
    throw new TargetError('Vendure refused the credentials', false, response.status);
  }
  const text = await response.text();
  try {
    return JSON.parse(text) as GraphQLAnswer<T>;
  } catch {
    if (response.status === 404) throw new TargetError('no Vendure Admin API at this URL (HTTP 404)', false, 404);
    throw new TargetError(`Vendure answered HTTP ${response.status} without GraphQL`, false, response.status);
  }
}

/** The union member a mutation answered: the entity, or Vendure's `ErrorResult` as a refusal. */
export function unwrap<T extends object>(result: T | { errorCode: string; message: string }): T {
  if (result && 'errorCode' in result && typeof result.errorCode === 'string') {
    throw new VendureRefusal(result.message, result.errorCode);
  }
  return result as T;
}
