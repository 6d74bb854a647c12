/**
 * Browser-side rules of the completeness screens (docs/completeness.md, docs/web.md
 * "Completeness"): where the editor opens a missing requirement, how a score is shown, and the
 * points of the 30-day sparkline. Pure functions, unit-tested (web/test/completeness.test.ts).
 */
import { REQUIRABLE_FIELDS } from './channel-draft';

/** Editor tabs a missing requirement's `field` (GetCompleteness) can name directly. */
const TAB_FIELDS = new Set(['media', 'prices', 'classification', 'links']);
/** Built-in fields of the Fields tab (the `name` of their inputs, FieldsForm.tsx): the requirable ones. */
const FIELD_TAB = new Set<string>(REQUIRABLE_FIELDS);

export interface FieldTarget {
  tab: string;
  /** The content language to edit in (a `@lang` path), else the catalog's default. */
  language?: string;
  /** The input to focus once the tab shows (its `name`). */
  focus?: string;
}

/**
 * Where a missing requirement is fixed: `name@eng` is the Fields tab in English (the translation
 * form) with the name focused, `values.colour` the Attributes tab, `media` / `prices` /
 * `classification` those tabs. A path the editor has no place for opens the Fields tab.
 */
export function fieldTarget(field: string): FieldTarget {
  if (TAB_FIELDS.has(field)) return { tab: field };
  const at = field.lastIndexOf('@');
  const path = at > 0 ? field.slice(0, at) : field;
  const language = at > 0 ? field.slice(at + 1) : undefined;
  if (path.startsWith('values.')) {
    // a localizable attribute in another language is edited in the translation form
    return language ? { tab: 'fields', language, focus: path } : { tab: 'attributes', focus: path };
  }
  return { tab: 'fields', ...(language ? { language } : {}), ...(FIELD_TAB.has(path) ? { focus: path } : {}) };
}

/** The editor's address for a target: `/products/ID?tab=fields&language=eng&focus=name`. */
export function fieldHref(productId: string, target: FieldTarget): string {
  const params = new URLSearchParams({ tab: target.tab });
  if (target.language) params.set('language', target.language);
  if (target.focus) params.set('focus', target.focus);
  return `/products/${productId}?${params.toString()}`;
}

/** The badge's tone: complete, at least half, or less. */
export function scoreTone(score: number): 'complete' | 'partial' | 'low' {
  return score >= 100 ? 'complete' : score >= 50 ? 'partial' : 'low';
}

/**
 * The polyline of a sparkline of `values` (0-100) in a `width` x `height` box, oldest first: x
 * spreads the points evenly, y = 0 at the top is 100 %. One point is drawn as a flat line.
 */
export function sparkline(values: readonly number[], width: number, height: number): string {
  if (values.length === 0) return '';
  const y = (v: number) => Math.round((height - (Math.max(0, Math.min(100, v)) / 100) * height) * 10) / 10;
  if (values.length === 1) return `0,${y(values[0]!)} ${width},${y(values[0]!)}`;
  const step = width / (values.length - 1);
  return values.map((v, i) => `${Math.round(i * step * 10) / 10},${y(v)}`).join(' ');
}

/** The movement over a series: last minus first (percentage points), 0 without two points. */
export function movement(values: readonly number[]): number {
  return values.length < 2 ? 0 : values[values.length - 1]! - values[0]!;
}
