import { useQuery } from '@tanstack/react-query';
import { useEffect, useEffectEvent, useState } from 'react';
import { apiGet } from '../../api/client';
import { keys } from '../../api/keys';
import { PRODUCT_STATUSES } from '../../api/models';
import { useI18n } from '../../i18n/i18n';
import type { ListQuery } from '../../api/models';
import { byVersion } from '../../editor/classification-api';
import { categoryOptions } from '../../lib/category-scope';

const MISSING = ['gtin', 'price', 'classification'] as const;

/**
 * Search box and filters of the product grid; every change goes to the address bar. `languages`
 * are the catalog's languages other than its default, for "translation missing in".
 */
export function Filters({
  query,
  onChange,
  languages,
}: {
  query: ListQuery;
  onChange: (patch: Partial<ListQuery>) => void;
  languages: readonly { code: string; name: string }[];
}) {
  const { t } = useI18n();
  const [q, setQ] = useState(query.q ?? '');
  const [classCode, setClassCode] = useState(query.classCode ?? '');
  const tree = useQuery({
    queryKey: keys.categoryTree(query.catalogId),
    queryFn: () => apiGet('Catalog/GetCategoryTree', { catalogId: query.catalogId }),
    staleTime: 60_000,
  });
  // "Products still on an old release" (docs/classification-releases.md): the releases classes name.
  const releases = useQuery({
    queryKey: keys.releases,
    queryFn: () => apiGet('Classification/GetReleases', {}),
    staleTime: 60_000,
  });
  const releaseNames = (releases.data?.items ?? [])
    .filter((r) => r.status === 'loaded')
    .map((r) => r.release)
    .sort(byVersion);
  if (query.classificationRelease && !releaseNames.includes(query.classificationRelease))
    releaseNames.push(query.classificationRelease);

  // Search as the user types, after a short pause (each keystroke is not a query).
  // (Products keys this component by catalog, so another catalog starts with its own search box.)
  const pushSearch = useEffectEvent((next: string) => {
    if ((query.q ?? '') !== next) onChange({ q: next });
  });
  useEffect(() => {
    const timer = window.setTimeout(() => pushSearch(q), 250);
    return () => window.clearTimeout(timer);
  }, [q]);

  const missing = new Set(query.missing ?? []);
  return (
    <search className="filters">
      <label className="field search">
        <span>{t('products.search')}</span>
        <input
          type="search"
          value={q}
          onChange={(e) => setQ(e.target.value)}
          placeholder={t('products.searchPlaceholder')}
        />
      </label>
      <label className="field">
        <span>{t('field.status')}</span>
        <select
          value={query.status ?? ''}
          onChange={(e) => onChange({ status: (e.target.value || undefined) as ListQuery['status'] })}
        >
          <option value="">{t('products.allStatuses')}</option>
          {PRODUCT_STATUSES.map((s) => (
            <option key={s} value={s}>
              {t(`status.${s}`)}
            </option>
          ))}
        </select>
      </label>
      <label className="field">
        <span>{t('products.category')}</span>
        <select value={query.categoryId ?? ''} onChange={(e) => onChange({ categoryId: e.target.value || undefined })}>
          <option value="">{t('products.allCategories')}</option>
          {categoryOptions(tree.data?.items ?? []).map((c) => (
            // a scoped member's context category (the path above their part) is shown, not chosen
            <option key={c.id} value={c.id} disabled={c.disabled}>
              {c.label}
            </option>
          ))}
        </select>
      </label>
      <label className="check-field">
        <input
          type="checkbox"
          checked={query.subtree === true}
          disabled={!query.categoryId}
          onChange={(e) => onChange({ subtree: e.target.checked })}
        />
        <span>{t('products.subtree')}</span>
      </label>
      <form
        className="field"
        onSubmit={(e) => {
          e.preventDefault();
          onChange({ classCode: classCode.trim() || undefined });
        }}
      >
        <label htmlFor="class-filter">{t('products.classCode')}</label>
        <input
          id="class-filter"
          value={classCode}
          onChange={(e) => setClassCode(e.target.value)}
          onBlur={() => onChange({ classCode: classCode.trim() || undefined })}
          placeholder="EC000000"
        />
      </form>
      {releaseNames.length > 0 && (
        <label className="field">
          <span>{t('products.classificationRelease')}</span>
          <select
            value={query.classificationRelease ?? ''}
            onChange={(e) => onChange({ classificationRelease: e.target.value || undefined })}
          >
            <option value="">{t('products.anyRelease')}</option>
            {releaseNames.map((r) => (
              <option key={r} value={r}>
                {r}
              </option>
            ))}
          </select>
        </label>
      )}
      {languages.length > 0 && (
        <label className="field">
          <span>{t('products.missingTranslation')}</span>
          <select
            value={query.missingTranslation ?? ''}
            onChange={(e) => onChange({ missingTranslation: e.target.value || undefined })}
          >
            <option value="">{t('products.anyTranslation')}</option>
            {languages.map((l) => (
              <option key={l.code} value={l.code}>
                {l.name}
              </option>
            ))}
          </select>
        </label>
      )}
      <fieldset className="missing">
        <legend>{t('products.missing')}</legend>
        {MISSING.map((m) => (
          <label key={m} className="check-field">
            <input
              type="checkbox"
              checked={missing.has(m)}
              onChange={(e) => {
                const next = new Set(missing);
                if (e.target.checked) next.add(m);
                else next.delete(m);
                onChange({ missing: [...next] });
              }}
            />
            <span>{t(`products.missing.${m}`)}</span>
          </label>
        ))}
      </fieldset>
    </search>
  );
}
