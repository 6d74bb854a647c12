/**
 * A SCIM error (RFC 7644 3.12): `{schemas, status, scimType?, detail}`, with the service's
 * `error` field beside it so every client of the PIM reads failures the same way.
 */
export const ERROR_SCHEMA = 'urn:ietf:params:scim:api:messages:2.0:Error';

export type ScimType = 'invalidFilter' | 'invalidValue' | 'invalidSyntax' | 'uniqueness' | 'mutability' | 'noTarget';

export class ScimError extends Error {
  constructor(
    readonly status: 400 | 401 | 403 | 404 | 409 | 413 | 415 | 429 | 500,
    detail: string,
    readonly scimType?: ScimType,
  ) {
    super(detail);
  }

  static notFound = (what: 'User' | 'Group') => new ScimError(404, `${what} not found`);
  static uniqueness = (detail: string) => new ScimError(409, detail, 'uniqueness');
  static invalidValue = (detail: string) => new ScimError(400, detail, 'invalidValue');
  static invalidFilter = (detail: string) => new ScimError(400, detail, 'invalidFilter');
  static invalidSyntax = (detail: string) => new ScimError(400, detail, 'invalidSyntax');
  static mutability = (detail: string) => new ScimError(400, detail, 'mutability');

  body() {
    return {
      schemas: [ERROR_SCHEMA],
      status: String(this.status),
      ...(this.scimType ? { scimType: this.scimType } : {}),
      detail: this.message,
      error: this.message,
    };
  }
}
