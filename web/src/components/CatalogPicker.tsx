import { useEffect, type ReactElement } from 'react';
import { useSearchParams } from 'react-router';
import { useCatalogs } from '../api/hooks';
import type { Catalog } from '../api/models';
import { useI18n } from '../i18n/i18n';
import { readLastCatalog, writeLastCatalog } from '../lib/last-catalog';

/**
 * The catalog a screen works on: `?catalog=` in the address (bookmarkable), else the one used
 * last, else the first. Returns the catalog (once loaded) and the select to change it.
 */
export function useCatalogChoice(): {
  catalog: Catalog | undefined;
  isPending: boolean;
  error: unknown;
  picker: ReactElement;
} {
  const { t } = useI18n();
  const catalogs = useCatalogs();
  const [params, setParams] = useSearchParams();
  const items = catalogs.data?.items ?? [];
  const wanted = params.get('catalog') ?? readLastCatalog();
  const catalog = items.find((c) => c.catalogId === wanted) ?? items[0];

  useEffect(() => {
    if (catalog) writeLastCatalog(catalog.catalogId);
  }, [catalog]);

  const picker = (
    <label className="inline-field">
      <span>{t('common.catalog')}</span>
      <select
        value={catalog?.catalogId ?? ''}
        onChange={(e) => setParams({ catalog: e.target.value })}
        disabled={!items.length}
      >
        {items.map((c) => (
          <option key={c.catalogId} value={c.catalogId}>
            {c.name}
          </option>
        ))}
      </select>
    </label>
  );
  return { catalog, isPending: catalogs.isPending, error: catalogs.error, picker };
}
