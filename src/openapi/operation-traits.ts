import type { Permission } from '../kernel/permissions';

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
  /**
   * What the caller's role must permit (kernel/permissions.ts; 403 before validation). Declared
   * where the default is wrong; by default (`requiredPermission`) a company admin's operation
   * needs `company.admin`, a read (GET) `read` and any other `product.write`.
   */
  permission?: Permission;
  /**
   * The operation writes a product and takes `translations`: a role without `product.write` may
   * still send these identity fields and `translations` in its languages, nothing else
   * (`assertProductWrite`, kernel/permissions.ts; docs/teams.md "Language scope").
   */
  textsOnlyWith?: readonly string[];
  /**
   * An import whose `mode: "texts"` a role with `text.write` but without `product.write` may
   * start (`assertImportMode`, kernel/permissions.ts; docs/teams.md "Language scope").
   */
  textsImport?: true;
  /**
   * An upload of an import file, which a role with `text.write` but without `product.write` may
   * send too: the file of its texts-only import (`assertMayUploadImport`, kernel/permissions.ts).
   */
  textsUpload?: true;
  /** The domain judges the product scope item by item (db/product-scope.ts `perRecordTargets`): the guard leaves a category-scoped member's catalog to it. */
  scopePerRecord?: true;
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

/**
 * The permission an operation needs: the declared one, else derived from what it is. None for an
 * operation without a caller (sign-in, Logout, the contact form) or for the service operator's
 * (no company role grants it, accounts/operator-only.ts). The guard and the document both call
 * this, so the 403 an operation documents is the one it answers.
 */
export function requiredPermission(traits: OperationTraits, method: string): Permission | undefined {
  if (traits.security === 'none' || traits.credentialOptional || traits.operatorOnly) return undefined;
  if (traits.permission) return traits.permission;
  if (traits.adminOnly) return 'company.admin';
  return method.toUpperCase() === 'GET' ? 'read' : 'product.write';
}
