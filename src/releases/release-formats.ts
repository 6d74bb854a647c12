import { BMECAT_FEATURE_SYSTEM_FORMAT } from './format-bmecat';
import { ECLASS_FORMAT } from './format-eclass';
import { ETIM_FORMAT } from './format-etim';
import { ETIM_IXF_FORMAT } from './format-etim-ixf';
import { PROFICLASS_FORMAT } from './format-proficlass';
import type { FormatSpec, RoleSpec } from './release-rows';
import type { ReleaseXmlLayout } from './release-xml';

/**
 * The release formats the loader reads (docs/classification-releases.md). One home for the
 * value set used by the request schema, the job and the CLI.
 */
export const RELEASE_FORMATS = [
  'PROFICLASS_CSV',
  'ETIM_CSV',
  'ECLASS_CSV',
  'BMECAT_FEATURE_SYSTEM',
  'ETIM_XML',
] as const;
export type ReleaseFormat = (typeof RELEASE_FORMATS)[number];

const SPECS: Record<ReleaseFormat, FormatSpec> = {
  PROFICLASS_CSV: PROFICLASS_FORMAT,
  ETIM_CSV: ETIM_FORMAT,
  ECLASS_CSV: ECLASS_FORMAT,
  BMECAT_FEATURE_SYSTEM: BMECAT_FEATURE_SYSTEM_FORMAT,
  ETIM_XML: ETIM_IXF_FORMAT,
};

/** The formats whose files are XML (one file, one role), and the layout each is read as. */
export const XML_LAYOUT: Partial<Record<ReleaseFormat, ReleaseXmlLayout>> = {
  BMECAT_FEATURE_SYSTEM: 'bmecat',
  ETIM_XML: 'ixf',
};

export function formatOf(format: ReleaseFormat): FormatSpec {
  return SPECS[format];
}

/** The format a system's releases are published in, when the request leaves it out. */
export function defaultFormat(system: string): ReleaseFormat | null {
  if (system === 'PROFICLASS') return 'PROFICLASS_CSV';
  if (system === 'ETIM') return 'ETIM_CSV';
  if (system === 'ECLASS') return 'ECLASS_CSV';
  return null;
}

/**
 * Which file of a release a header belongs to: the role all of whose identifying columns are
 * in it, the most specific (most columns) when several match. Null when none does.
 */
export function roleOfHeader(spec: FormatSpec, columns: readonly string[]): RoleSpec | null {
  const have = new Set(columns);
  let best: RoleSpec | null = null;
  for (const role of spec.roles)
    if (role.identify.every((c) => have.has(c)) && (!best || role.identify.length > best.identify.length)) best = role;
  return best;
}
