// The SSRF rule is shared with the PIM, which applies it to the OpenID issuers it fetches (docs/sso.md).
export { allowsPrivateTargets, refusedUrlReason } from '../../../src/sync/protocol/url-guard';
