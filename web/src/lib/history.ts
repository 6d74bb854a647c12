import type { HistoryItem } from '../api/models';
import type { MessageKey } from '../i18n/de';

/**
 * How a version of the change history reads in the product editor's History tab: which field a
 * change path names and how a before/after value is shown (docs/history.md lists the paths).
 */

const BUILT_IN = new Set([
  'sku',
  'name',
  'status',
  'gtin',
  'price',
  'priceQuantity',
  'unit',
  'contentUnit',
  'contentPerUnit',
  'quantityMin',
  'quantityInterval',
  'manufacturerName',
  'manufacturerPid',
  'deliveryTimeDays',
  'keywords',
  'description',
]);

/** `language`: the content language of a translation's path (`name@eng`; docs/languages.md), else absent. */
type PathLabel = { key: MessageKey; vars?: Record<string, string>; language?: string };

/**
 * `price` → the field's label; `values.colour` → "Attribute colour"; feature paths name group and
 * code; a translation's path (`name@eng`) is its field's label with the language.
 */
export function pathLabel(path: string): PathLabel {
  const at = path.lastIndexOf('@');
  if (at > 0) return { ...pathLabel(path.slice(0, at)), language: path.slice(at + 1) };
  if (BUILT_IN.has(path)) return { key: `field.${path}` as MessageKey };
  const [head, ...rest] = path.split('.');
  if (head === 'values' && rest.length > 0) return { key: 'history.path.value', vars: { code: rest.join('.') } };
  if (head === 'classification' && rest[0] === 'feature' && rest.length >= 3)
    return { key: 'history.path.feature', vars: { group: rest[1]!, code: rest.slice(2).join('.') } };
  if (head === 'classification' && rest[0] === 'class' && rest.length >= 2)
    return { key: 'history.path.class', vars: { group: rest[1]! } };
  if (head === 'media' && rest.length > 0) return { key: 'history.path.media', vars: { id: rest.join('.').slice(-6) } };
  if (path === 'categories') return { key: 'history.path.categories' };
  if (path === 'variants') return { key: 'history.path.variants' };
  return { key: 'history.path.other', vars: { path } };
}

/** A recorded value as one line: absent as an em dash, lists joined, objects by their fields. */
export function displayValue(value: unknown): string {
  if (value === null || value === undefined || value === '') return '—';
  if (Array.isArray(value)) return value.length === 0 ? '—' : value.map(displayValue).join(', ');
  if (typeof value === 'object') {
    return Object.entries(value as Record<string, unknown>)
      .filter(([, v]) => v !== null && v !== undefined)
      .map(([k, v]) => `${k}: ${displayValue(v)}`)
      .join('; ');
  }
  return String(value);
}

/** Who made the change through what: "Erika Editor · MCP (Claude Desktop)". */
export function surfaceKey(item: Pick<HistoryItem, 'surface'>): MessageKey {
  return `history.surface.${item.surface}` as MessageKey;
}
