// oidc-provider (v9) ships no types; the part test/e2e/web-sso.e2e.test.ts uses.
declare module 'oidc-provider' {
  import type { IncomingMessage, ServerResponse } from 'node:http';

  interface Account {
    accountId: string;
    claims(): Promise<Record<string, unknown>>;
  }

  interface Configuration {
    clients: Record<string, unknown>[];
    claims?: Record<string, string[]>;
    scopes?: string[];
    conformIdTokenClaims?: boolean;
    pkce?: { required: () => boolean };
    cookies?: { keys: string[] };
    features?: Record<string, { enabled: boolean }>;
    /** Lifetimes in seconds, each a number or a function of the request and the token. */
    ttl?: Record<string, number | ((...args: unknown[]) => number)>;
    /** The provider's own outgoing requests (back-channel logout); options carry its SSRF-guarded dispatcher. */
    fetch?: (url: string | URL, options: RequestInit & { dispatcher?: unknown }) => Promise<Response>;
    findAccount(ctx: unknown, id: string): Promise<Account | undefined>;
  }

  export default class Provider {
    constructor(issuer: string, configuration: Configuration);
    callback(): (req: IncomingMessage, res: ServerResponse) => void;
  }
}
