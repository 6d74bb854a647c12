/**
 * Why a sign-in through the identity provider failed, as the sign-in page explains it
 * (`/sign-in?ssoError=<reason>`); the details go to the log only.
 */
export type SsoFailure =
  | 'expired' // no such sign-in in flight: unknown, used, other browser or too old
  | 'denied' // the identity provider answered with an error (the user cancelled)
  | 'token' // the code exchange or the ID token failed a check
  | 'no-email' // the ID token carries no usable e-mail address
  | 'no-role' // in none of the mapped groups and no default role
  | 'groups' // the groups were too many for the ID token and their claim source could not be read
  | 'foreign-account' // the address belongs to another company's account
  | 'deactivated'; // SCIM deactivated the member

export class SsoSignInError extends Error {
  constructor(
    readonly reason: SsoFailure,
    detail: string,
  ) {
    super(detail);
  }
}
