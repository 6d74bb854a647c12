import type { ClassificationGroup } from './classification-groups';

/**
 * How a classification names a loaded release: `SYSTEM-version` (ETIM-9.0, PROFICLASS-7.0,
 * ETIM-DYNAMIC-2025-06 is system ETIM, version DYNAMIC-2025-06: the system is the part before
 * the first hyphen). One home for the shape, so the release loader's queries and a
 * classification's `release` field (a layer below the loader) read names alike.
 */
export const RELEASE_NAME = /^[A-Z][A-Z0-9_]{1,19}-[0-9A-Za-z][0-9A-Za-z._-]{0,31}$/;
export const RELEASE_NAME_RULE = 'release is SYSTEM-version, e.g. ETIM-9.0';

/** `ETIM-9.0` → system ETIM, version 9.0 (the system has no hyphen; a version may). */
export function splitRelease(release: string) {
  const at = release.indexOf('-');
  return { system: release.slice(0, at), version: release.slice(at + 1) };
}

/**
 * The classification group whose classes a release's classes can be: a release of system
 * ETIM classifies in group ETIM, and so on; other systems (UNSPSC, a BMEcat feature system)
 * have no group and cannot be a classification's release (their codes go to feature blocks).
 */
export function groupOfRelease(release: string): ClassificationGroup | null {
  const { system } = splitRelease(release);
  return system === 'ETIM' || system === 'ECLASS' || system === 'PROFICLASS' ? system : null;
}

/**
 * The release a supplier file's system name means, as BMEcat's REFERENCE_FEATURE_SYSTEM_NAME
 * and xChange write it: `ETIM-9.0`, `ETIM 9.0`, `ETIM-9`, `eCl@ss-5.1`, `ECLASS 13.0`,
 * `proficl@ss 7.0` → ETIM-9.0, ECLASS-5.1, ECLASS-13.0, PROFICLASS-7.0; null when the name
 * carries no version or is another system's.
 */
export function releaseOfSystem(system: string | null | undefined): string | null {
  const m = /^\s*(etim|ecl[@a]ss|profic(?:l@|la)ss)[\s_-]*(?:v(?=\d))?([0-9A-Za-z][0-9A-Za-z._-]{0,31})\s*$/i.exec(
    system ?? '',
  );
  if (!m) return null;
  const name = m[1]!.toUpperCase().replace('@', 'A');
  return `${name}-${/^\d+$/.test(m[2]!) ? `${m[2]}.0` : m[2]}`;
}
