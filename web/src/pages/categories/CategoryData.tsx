import { useState, type FormEvent } from 'react';
import { describeError } from '../../api/errors';
import { useCategoryPath } from '../../api/hooks';
import type { Category } from '../../api/models';
import { useUpdateCategory } from '../../api/mutations';
import { useAnnounce } from '../../components/Announcer';
import { ErrorText } from '../../components/ErrorText';
import { FormField } from '../../components/FormField';
import { useI18n } from '../../i18n/i18n';
import {
  type CategoryFeature,
  emptyFeatureRow,
  featureRows,
  featuresOf,
  keywordsOf,
  mediaEntry,
} from '../../lib/category-data';
import { useSession } from '../../session/session';

/**
 * A category's group data (issue 32; docs/web.md "Categories"): its media list (pictures and
 * sheets an import kept, as links or file references), KEYWORDs and FEATUREs, editable and
 * saved through UpdateCategory, and the USER_DEFINED_EXTENSIONS an import kept, read-only.
 * Read through GetCategory, which answers them with the media list.
 */
export function CategoryData({
  catalogId,
  category,
  readOnly = false,
}: {
  catalogId: string;
  category: Category;
  /** A role without `product.write`: the keywords and features are shown, not edited. */
  readOnly?: boolean;
}) {
  const detail = useCategoryPath(category.categoryId);
  if (!detail.data) return null;
  const d = detail.data;
  return (
    <DataForm
      key={JSON.stringify([d.keywords, d.features])}
      catalogId={catalogId}
      category={category}
      keywords={d.keywords ?? ''}
      features={d.features as CategoryFeature[] | undefined}
      udx={d.udx}
      media={d.media}
      readOnly={readOnly}
    />
  );
}

function DataForm(props: {
  catalogId: string;
  category: Category;
  keywords: string;
  features: CategoryFeature[] | undefined;
  udx: string | undefined;
  media: {
    mediaId: string;
    kind: 'file' | 'link';
    url: string | null;
    fileName: string;
    size: number;
    purpose: string;
  }[];
  readOnly: boolean;
}) {
  const { t } = useI18n();
  const { departmentId } = useSession();
  const updateCategory = useUpdateCategory();
  const announce = useAnnounce();
  const [keywords, setKeywords] = useState(props.keywords);
  const [rows, setRows] = useState(() => featureRows(props.features));
  const [error, setError] = useState<string | null>(null);
  const setRow = (i: number, part: 'name' | 'values' | 'unit', value: string) =>
    setRows((all) => all.map((r, j) => (j === i ? { ...r, [part]: value } : r)));

  const save = (e: FormEvent) => {
    e.preventDefault();
    setError(null);
    void (async () => {
      try {
        await updateCategory.mutateAsync({
          departmentId,
          catalogId: props.catalogId,
          categoryId: props.category.categoryId,
          name: props.category.name ?? '',
          keywords: keywordsOf(keywords),
          features: featuresOf(rows),
        });
        announce(t('categories.dataSaved'));
      } catch (err) {
        setError(describeError(err, t));
      }
    })();
  };

  return (
    <section className="stack" aria-labelledby="category-data-h">
      <h3 id="category-data-h" className="h4">
        {t('categories.data')}
      </h3>
      <div>
        <h4 className="h5">{t('categories.media')}</h4>
        {props.media.length === 0 ? (
          <p className="muted">{t('categories.noMedia')}</p>
        ) : (
          <ul>
            {props.media.map((m) => {
              const entry = mediaEntry(m);
              return (
                <li key={m.mediaId}>
                  {entry.kind === 'link' ? (
                    <a href={entry.source} target="_blank" rel="noreferrer noopener">
                      {entry.source}
                    </a>
                  ) : (
                    <span>{entry.source}</span>
                  )}{' '}
                  <span className="muted">
                    ({t(`categories.mediaKind.${entry.kind}`)}, {m.purpose})
                  </span>
                </li>
              );
            })}
          </ul>
        )}
      </div>
      <form className="stack" onSubmit={save} noValidate>
        <fieldset className="bare stack" disabled={props.readOnly}>
          <FormField label={t('categories.keywords')} hint={t('categories.keywordsHint')}>
            {(p) => <input {...p} value={keywords} onChange={(e) => setKeywords(e.target.value)} />}
          </FormField>
          <table>
            <caption>{t('categories.features')}</caption>
            <thead>
              <tr>
                <th scope="col">{t('categories.featureName')}</th>
                <th scope="col">{t('categories.featureValues')}</th>
                <th scope="col">{t('categories.featureUnit')}</th>
                <th scope="col">
                  <span className="visually-hidden">{t('categories.featureRemove')}</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {rows.map((r, i) => (
                // biome-ignore lint/suspicious/noArrayIndexKey: rows have no identity of their own
                <tr key={i}>
                  <td>
                    <input
                      aria-label={t('categories.featureName')}
                      value={r.name}
                      onChange={(e) => setRow(i, 'name', e.target.value)}
                    />
                  </td>
                  <td>
                    <input
                      aria-label={t('categories.featureValues')}
                      value={r.values}
                      onChange={(e) => setRow(i, 'values', e.target.value)}
                    />
                  </td>
                  <td>
                    <input
                      aria-label={t('categories.featureUnit')}
                      value={r.unit}
                      onChange={(e) => setRow(i, 'unit', e.target.value)}
                    />
                  </td>
                  <td>
                    <button type="button" onClick={() => setRows((all) => all.filter((_, j) => j !== i))}>
                      {t('categories.featureRemove')}
                    </button>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
          {!props.readOnly && (
            <div className="row">
              <button type="button" onClick={() => setRows((all) => [...all, emptyFeatureRow()])}>
                {t('categories.featureAdd')}
              </button>
              <button type="submit">{t('common.save')}</button>
            </div>
          )}
        </fieldset>
        <ErrorText message={error} />
      </form>
      {props.udx ? (
        <details>
          <summary>{t('categories.udx')}</summary>
          <pre className="muted">{props.udx}</pre>
        </details>
      ) : null}
    </section>
  );
}
