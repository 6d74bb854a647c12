/**
 * What an operation is, beyond its request schema (which its `validate` middleware gives).
 * The error statuses of the OpenAPI document are derived from these properties in one place
 * (`error-responses.ts`); routes never list statuses by hand.
 */
export interface OperationTraits {
  /** How the caller is identified: web session cookie, OAuth bearer token (/api/ai), or not at all. */
  security: 'cookie' | 'bearer' | 'none';
  /** The cookie may be absent: the operation answers without one (Logout), so never 401. */
  credentialOptional?: true;
  /** Checks an email and password to open a session (Login): 401 for wrong ones, Origin-checked. */
  signIn?: true;
  /** Only a company admin may call it (403 for others, before the body is validated). */
  adminOnly?: true;
  /** Only a company admin may send these top-level body fields, null aside (403 for others who send one, before the body is validated). */
  adminOnlyFields?: readonly string[];
  /** Only the service operator may call it: it changes reference data every company shares (403 for others, company admins and agents included, before the body is validated). */
  operatorOnly?: true;
  /** An agent needs the switch "AI may edit classifications" (docs/spec.md 5.2 rule 6; 403 before validation). */
  aiSwitch?: true;
  /** Input fields other than `*Id(s)` that name a stored thing (404 when unknown), e.g. a class code. */
  references?: readonly string[];
  /** Why the operation can meet a conflict with the stored state (409). */
  conflict?: string;
  /** The rate limit or throttle that can answer 429. */
  rateLimited?: string;
  /** The operation takes a raw file as its body, of these content types (413 over its limit). */
  upload?: string | readonly string[];
}
