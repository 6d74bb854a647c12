/**
 * The SSRF rule for every URL fetched on a tenant's behalf: the connector's targets (a base URL,
 * an image) and the PIM's OpenID issuers (docs/sso.md): http(s) only, and never a private, loopback, link-local or otherwise internal
 * host, whether written as an IPv4 or IPv6 literal or as a name that points inward by
 * convention. Names are judged as written (a Worker cannot resolve DNS before fetching; on
 * Cloudflare's network a public name cannot reach a private network anyway). Local development
 * and tests lift the rule with the Worker var `ALLOW_PRIVATE_TARGETS = "true"`.
 */

/** True when the Worker var lifts the rule (never set in production config). */
export const allowsPrivateTargets = (value: string | undefined) => value === 'true';

function ipv4Parts(host: string): number[] | null {
  const parts = host.split('.');
  if (parts.length !== 4 || parts.some((p) => !/^\d{1,3}$/.test(p))) return null;
  const numbers = parts.map(Number);
  return numbers.every((n) => n <= 255) ? numbers : null;
}

function isPrivateIpv4([a, b]: number[]): boolean {
  return (
    a === 0 ||
    a === 10 ||
    a === 127 ||
    (a === 100 && b! >= 64 && b! <= 127) ||
    (a === 169 && b === 254) ||
    (a === 172 && b! >= 16 && b! <= 31) ||
    (a === 192 && b === 168) ||
    (a === 192 && b === 0) ||
    (a === 198 && (b === 18 || b === 19)) ||
    a! >= 224
  );
}

/** The eight 16-bit groups of an IPv6 literal (the URL parser has already normalised it), or null. */
function ipv6Groups(host: string): number[] | null {
  if (!host.startsWith('[') || !host.endsWith(']')) return null;
  let text = host.slice(1, -1).toLowerCase();
  const v4 = text.match(/(\d+\.\d+\.\d+\.\d+)$/);
  if (v4) {
    const parts = ipv4Parts(v4[1]!);
    if (!parts) return null;
    text = `${text.slice(0, -v4[1]!.length)}${((parts[0]! << 8) | parts[1]!).toString(16)}:${((parts[2]! << 8) | parts[3]!).toString(16)}`;
  }
  const [head, tail] = text.includes('::') ? text.split('::') : [text, null];
  const left = head ? head.split(':') : [];
  const right = tail ? tail.split(':') : [];
  const missing = 8 - left.length - right.length;
  if (tail === null ? left.length !== 8 : missing < 0) return null;
  const groups = [...left, ...Array(tail === null ? 0 : missing).fill('0'), ...right].map((g) =>
    Number.parseInt(g, 16),
  );
  return groups.every((g) => Number.isInteger(g) && g >= 0 && g <= 0xffff) ? groups : null;
}

function isPrivateIpv6(g: number[]): boolean {
  const embeddedV4 = [g[6]! >> 8, g[6]! & 0xff];
  if (g.slice(0, 7).every((x) => x === 0)) return true; // :: and ::1
  if (g.slice(0, 5).every((x) => x === 0) && g[5] === 0xffff) return isPrivateIpv4(embeddedV4); // ::ffff:a.b.c.d
  if (g[0] === 0x64 && g[1] === 0xff9b) return isPrivateIpv4(embeddedV4); // NAT64
  return (g[0]! & 0xfe00) === 0xfc00 || (g[0]! & 0xffc0) === 0xfe80 || (g[0]! & 0xff00) === 0xff00;
}

function isInternalName(host: string): boolean {
  const name = host.replace(/\.$/, '').toLowerCase();
  return (
    name === 'localhost' ||
    name.endsWith('.localhost') ||
    name.endsWith('.local') ||
    name.endsWith('.internal') ||
    !name.includes('.')
  );
}

/** Why the connector or the PIM (webhook receivers, identity providers) refuses to fetch this URL, or null when it may. */
export function refusedUrlReason(url: string, allowPrivate: boolean): string | null {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return 'the URL is not valid';
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') return 'only http and https URLs are allowed';
  if (parsed.username || parsed.password) return 'the URL must not carry a user name or password';
  if (allowPrivate) return null;
  const host = parsed.hostname;
  const v4 = ipv4Parts(host);
  if (v4) return isPrivateIpv4(v4) ? 'the URL points to a private, loopback or link-local address' : null;
  const v6 = ipv6Groups(host);
  if (host.startsWith('[')) {
    return !v6 || isPrivateIpv6(v6) ? 'the URL points to a private, loopback or link-local address' : null;
  }
  return isInternalName(host) ? 'the URL points to an internal host name' : null;
}
