import { useId, useState } from 'react';
import { useCatalogs, useCategories, useCategoryPath } from '../api/hooks';
import { ErrorText } from '../components/ErrorText';
import { useI18n } from '../i18n/i18n';
import { type CategoryChoice, chooseAt, currentChoice } from '../lib/category-choice';
import { type RequirementRow, withLanguage } from '../lib/channel-draft';
import type { FieldProblem } from '../lib/channel-problems';
import { CategorySearch } from './CategorySearch';

type Language = { code: string; nativeName: string };

/**
 * A requirement's limits (docs/completeness.md "Requirements"): some of the channel's languages
 * (none checked: every language of the channel) and one category subtree (none: every product).
 * Folded into a disclosure whose summary says the limits in force, open when a limit is set or
 * the API's 400 names one (shown under its input like every other field of the row).
 */
export function RequirementLimits({
  row,
  n,
  languages,
  problem,
  onChange,
}: {
  row: RequirementRow;
  n: number;
  /** The languages the channel publishes (as checked in the dialog now) and those the limit names. */
  languages: readonly Language[];
  problem: FieldProblem | null;
  onChange: (row: RequirementRow) => void;
}) {
  const { t } = useI18n();
  const errorId = useId();
  const limited = Boolean(row.languages?.length || row.categoryId);
  const [open, setOpen] = useState(limited);
  const languageError = problem?.input === 'languages' ? problem.message : null;
  const categoryError = problem?.input === 'categoryId' ? problem.message : null;
  const path = useCategoryPath(row.categoryId);
  // A language of the limit no longer enabled at all stays listed by its code, so it can be unchecked.
  const offered = [
    ...languages,
    ...(row.languages ?? [])
      .filter((c) => !languages.some((l) => l.code === c))
      .map((code) => ({ code, nativeName: code })),
  ];
  const summary = [
    row.languages?.length ? t('channels.limits.inLanguages', { languages: row.languages.join(', ') }) : null,
    row.categoryId
      ? t('channels.limits.inCategory', {
          path: path.data ? path.data.path.map((p) => p.name).join(' › ') : path.isError ? '?' : '…',
        })
      : null,
  ].filter(Boolean);
  return (
    <details
      className="requirement-limits"
      open={open || Boolean(languageError || categoryError)}
      onToggle={(e) => setOpen(e.currentTarget.open)}
    >
      <summary>
        {t('channels.limits', { n })}: <span className="muted">{summary.join('; ') || t('channels.limits.none')}</span>
      </summary>
      <fieldset className="plain-fieldset" aria-describedby={languageError ? errorId : undefined}>
        <legend>{t('channels.limits.languages', { n })}</legend>
        <p className="muted small">{t('channels.limits.allLanguages')}</p>
        <div className="language-checks">
          {offered.map((l) => (
            <label key={l.code} className="check-field">
              <input
                type="checkbox"
                checked={row.languages?.includes(l.code) ?? false}
                aria-invalid={languageError ? true : undefined}
                onChange={(e) => onChange(withLanguage(row, l.code, e.target.checked))}
              />
              <span>
                {l.nativeName} <span className="muted">({l.code})</span>
              </span>
            </label>
          ))}
        </div>
        {languageError && <ErrorText id={errorId} message={languageError} />}
      </fieldset>
      <CategoryLimit
        n={n}
        categoryId={row.categoryId}
        known={path.data ? { catalogId: path.data.catalogId, chain: path.data.path.map((p) => p.categoryId) } : null}
        missing={path.isError}
        error={categoryError}
        onChange={(categoryId) => onChange({ ...row, categoryId })}
      />
    </details>
  );
}

/**
 * A category chosen level by level: the catalog, then one select per level (GetCategories of
 * the level above, loaded when it is shown), so a catalog of thousands of categories is never
 * loaded whole, or found by name (CategorySearch.tsx). An existing limit starts at its catalog
 * and path (GetCategory).
 */
function CategoryLimit({
  n,
  categoryId,
  known,
  missing,
  error,
  onChange,
}: {
  n: number;
  categoryId: string | undefined;
  known: CategoryChoice | null;
  /** The limit names a category GetCategory no longer finds (deleted). */
  missing: boolean;
  error: string | null;
  onChange: (categoryId: string | undefined) => void;
}) {
  const { t } = useI18n();
  const id = useId();
  const catalogs = useCatalogs().data?.items ?? [];
  // What the user picked in this dialog; until then, where the requirement's category is.
  const [picked, setPicked] = useState<CategoryChoice | null>(null);
  const shown = currentChoice(picked, categoryId, known, catalogs[0]?.catalogId);
  // (a category no longer found: the first catalog, with a button to lift the stale limit)
  const current = shown ?? { catalogId: missing ? (catalogs[0]?.catalogId ?? '') : '', chain: [] };
  const choose = (next: CategoryChoice) => {
    setPicked(next);
    onChange(next.chain.at(-1));
  };
  const invalid = error ? { 'aria-invalid': true as const, 'aria-describedby': `${id}-error` } : {};
  return (
    <>
      <div className="row category-limit">
        <div className="field">
          <label htmlFor={`${id}-catalog`}>{t('channels.limits.catalog', { n })}</label>
          <select
            id={`${id}-catalog`}
            value={current.catalogId}
            disabled={!catalogs.length || (shown === null && !missing)}
            onChange={(e) => choose({ catalogId: e.target.value, chain: [] })}
          >
            {catalogs.map((c) => (
              <option key={c.catalogId} value={c.catalogId}>
                {c.name}
              </option>
            ))}
          </select>
        </div>
        {current.catalogId &&
          [null, ...current.chain].map((parentId, level) => (
            <CategoryLevel
              key={parentId ?? 'top'}
              label={
                level === 0
                  ? t('channels.limits.category', { n })
                  : t('channels.limits.subcategory', { n, level: level + 1 })
              }
              blank={level === 0 ? t('channels.limits.anyCategory') : t('channels.limits.wholeCategory')}
              catalogId={current.catalogId}
              parentId={parentId}
              value={current.chain[level] ?? ''}
              invalid={level === 0 ? invalid : {}}
              onChange={(value) => choose(chooseAt(current, level, value))}
            />
          ))}
        {missing && shown === null && (
          <p className="muted small">
            {t('channels.limits.missingCategory')}{' '}
            <button type="button" onClick={() => choose({ catalogId: current.catalogId, chain: [] })}>
              {t('channels.limits.anyCategory')}
            </button>
          </p>
        )}
        {error && <ErrorText id={`${id}-error`} message={error} />}
      </div>
      {current.catalogId && (
        <CategorySearch
          n={n}
          catalogId={current.catalogId}
          onPick={(found) => {
            // (the selects follow the category's path once GetCategory has read it)
            setPicked(null);
            onChange(found);
          }}
        />
      )}
    </>
  );
}

/** One level's select: the children of `parentId` (the top level for null); none below a leaf. */
function CategoryLevel({
  label,
  blank,
  catalogId,
  parentId,
  value,
  invalid,
  onChange,
}: {
  label: string;
  blank: string;
  catalogId: string;
  parentId: string | null;
  value: string;
  invalid: Record<string, unknown>;
  onChange: (categoryId: string) => void;
}) {
  const id = useId();
  const level = useCategories(catalogId, parentId);
  const items = level.data?.items ?? [];
  // A deeper level appears once it is known to have children (no empty select flashing below a leaf).
  if (parentId !== null && !(level.isSuccess && items.length > 0)) return null;
  return (
    <div className="field">
      <label htmlFor={id}>{label}</label>
      <select id={id} value={value} disabled={level.isPending} onChange={(e) => onChange(e.target.value)} {...invalid}>
        <option value="">{blank}</option>
        {items.map((c) => (
          <option key={c.categoryId} value={c.categoryId}>
            {c.name}
          </option>
        ))}
      </select>
    </div>
  );
}
