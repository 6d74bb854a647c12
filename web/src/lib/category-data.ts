/**
 * The category editor's group data (docs/web.md "Categories"; issue 32): KEYWORDs as one
 * comma-separated text, FEATUREs as rows of name, values and unit. A feature's other parts
 * (FORDER, FDESCR, further names … kept from an import) ride along unchanged, so editing a
 * value never loses what the form does not show.
 */

/** A category feature as the API answers it (a feature block's feature). */
export interface CategoryFeature {
  name?: string;
  values?: string[];
  unit?: string;
  ftId?: string;
  [part: string]: unknown;
}

/** One row of the features form: the texts typed, and the feature it came from. */
export interface FeatureRow {
  name: string;
  /** The values joined by " | " (a value may hold commas). */
  values: string;
  unit: string;
  source: CategoryFeature | null;
}

const VALUE_SEPARATOR = ' | ';

export function featureRows(features: readonly CategoryFeature[] | undefined): FeatureRow[] {
  return (features ?? []).map((f) => ({
    name: f.name ?? f.ftId ?? '',
    values: (f.values ?? []).join(VALUE_SEPARATOR),
    unit: f.unit ?? '',
    source: f,
  }));
}

export const emptyFeatureRow = (): FeatureRow => ({ name: '', values: '', unit: '', source: null });

/**
 * The rows as UpdateCategory's `features`: rows without a name are dropped, values split at "|", an empty unit left out; null when no row is
 * left (UpdateCategory then removes the features).
 */
export function featuresOf(rows: readonly FeatureRow[]): CategoryFeature[] | null {
  const out: CategoryFeature[] = [];
  for (const row of rows) {
    const name = row.name.trim();
    if (!name) continue;
    const source = row.source ?? {};
    // A template feature (eCl@ss Advanced) shows its FT_ID as its name: unchanged, it stays without FNAME.
    const template = source.name === undefined && source.ftId !== undefined && name === source.ftId;
    const { name: _name, values: _values, unit: _unit, ...rest } = source;
    const values = row.values
      .split('|')
      .map((v) => v.trim())
      .filter((v) => v !== '');
    const unit = row.unit.trim();
    out.push({
      ...rest,
      ...(template ? {} : { name }),
      ...(values.length > 0 ? { values } : {}),
      ...(unit ? { unit } : {}),
    });
  }
  return out.length > 0 ? out : null;
}

/** The keywords text as UpdateCategory's `keywords`: trimmed, empty entries dropped, null when none. */
export function keywordsOf(text: string): string | null {
  const parts = text
    .split(',')
    .map((k) => k.trim())
    .filter((k) => k !== '');
  return parts.length > 0 ? parts.join(', ') : null;
}

/** A media entry of the category as the editor lists it: what it points at and what it is. */
export function mediaEntry(m: { kind: 'file' | 'link'; url: string | null; fileName: string; size: number }) {
  return {
    source: m.url ?? m.fileName,
    kind: m.kind === 'link' ? ('link' as const) : m.size > 0 ? ('file' as const) : ('reference' as const),
  };
}
