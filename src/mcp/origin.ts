const LOOPBACK = /^(localhost|127(?:\.\d{1,3}){3}|\[::1\])$/i;

function isLoopback(hostname: string): boolean {
  return LOOPBACK.test(hostname);
}

/**
 * DNS-rebinding protection (MCP transports, "Security Warning"): a browser page on a foreign
 * site must not be able to talk to the MCP endpoint. Requests without `Origin` come from
 * non-browser clients and pass. A present `Origin` must be this service's own host, or, when
 * the service runs on a loopback address (wrangler dev), any loopback origin such as a local
 * MCP Inspector. A plain-http request must also name a loopback `Host`: only https can prove
 * which host a client meant to reach. Answers the reason to refuse, or null.
 */
export function foreignOriginReason(request: Request): string | null {
  const url = new URL(request.url);
  if (url.protocol === 'http:' && !isLoopback(url.hostname))
    return 'plain-http requests must be addressed to a loopback host';
  const origin = request.headers.get('Origin');
  if (origin === null) return null;
  let originUrl: URL;
  try {
    originUrl = new URL(origin);
  } catch {
    return 'Origin header is not a valid origin';
  }
  if (originUrl.protocol !== 'http:' && originUrl.protocol !== 'https:') return 'Origin header is not a web origin';
  if (originUrl.hostname === url.hostname) return null;
  if (isLoopback(url.hostname) && isLoopback(originUrl.hostname)) return null;
  return `requests from origin ${originUrl.origin} are not allowed`;
}
