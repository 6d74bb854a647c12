import { textOf } from '../imports/read/xml-node';
import type { XmlNode } from '../imports/read/xml-node';
import { RowReject } from './release-rows';

/**
 * The release an ETIM IXF file's Header states: `ReleaseVersion` (also read as EtimVersion,
 * ETIMVersion, Release, ReleaseNumber) as `9.0`, `ETIM-10.0`, `10` or `DYNAMIC`, and the
 * release date (ReleaseDate, Date, ExportDate). The Header is the file's first entry, so a file
 * that contradicts the request fails before a row is written. The request's version is the
 * operator's name for the release: a name that is no version number (a test's `x1a2b`) is not
 * compared. `Version` in the Header is the IXF format's own version (3.1) and is not the release.
 */
const VERSION_ELEMENTS = ['ReleaseVersion', 'EtimVersion', 'ETIMVersion', 'Release', 'ReleaseNumber'];
const DATE_ELEMENTS = ['ReleaseDate', 'Date', 'ExportDate'];

/** `9.0` for 9, 9.0, ETIM-9.0, ETIM 9; `dynamic` for DYNAMIC...; null for anything else. */
export function releaseNumber(given: string): string | 'dynamic' | null {
  const text = given.trim().replace(/^ETIM[-\s]*/i, '');
  if (/^dynamic/i.test(text)) return 'dynamic';
  const match = /^(\d{1,3})(?:\.(\d{1,3}))?$/.exec(text);
  return match ? `${Number(match[1])}.${Number(match[2] ?? 0)}` : null;
}

/** Refuses a Header whose release contradicts the requested version, or whose date is not a date. */
export function checkIxfHeader(node: XmlNode, requested: string | undefined): void {
  const date = textOf(node, ...DATE_ELEMENTS);
  if (date !== null && !/^\d{4}-?\d{2}-?\d{2}/.test(date))
    throw new RowReject(`Header release date "${date}" is not a date (YYYY-MM-DD)`);
  const stated = textOf(node, ...VERSION_ELEMENTS);
  if (stated === null || requested === undefined) return;
  const file = releaseNumber(stated);
  const asked = releaseNumber(requested);
  if (file === null || asked === null || file === asked) return;
  const what = file === 'dynamic' ? 'a dynamic ETIM release' : `ETIM ${file}`;
  throw new RowReject(
    `the file is ${what} (Header ${stated}${date ? ` of ${date}` : ''}), not the requested version ${requested}`,
  );
}
