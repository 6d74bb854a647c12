import { useQuery } from '@tanstack/react-query';
import { type FormEvent, useState } from 'react';
import { apiGet } from '../../api/client';
import { describeError } from '../../api/errors';
import { useCatalogs, useContentLanguages } from '../../api/hooks';
import { keys } from '../../api/keys';
import type { Category, CategoryTreeNode } from '../../api/models';
import { useUpdateCategory } from '../../api/mutations';
import { useAnnounce } from '../../components/Announcer';
import { ErrorText } from '../../components/ErrorText';
import { useI18n } from '../../i18n/i18n';
import { languageName, translationLanguages, translationPatch } from '../../lib/content-language';
import { useSession } from '../../session/session';

function find(nodes: readonly CategoryTreeNode[], id: string): CategoryTreeNode | undefined {
  for (const n of nodes) {
    if (n.categoryId === id) return n;
    const below = find(n.children ?? [], id);
    if (below) return below;
  }
  return undefined;
}

/**
 * A category's name in the catalog's other languages (docs/languages.md): one input per
 * language, a missing one marked, saved through UpdateCategory's `translations`. Nothing for a
 * catalog with one language.
 */
export function CategoryTranslations({ catalogId, category }: { catalogId: string; category: Category }) {
  const catalog = useCatalogs().data?.items.find((c) => c.catalogId === catalogId);
  const languages = catalog ? translationLanguages(catalog) : [];
  const tree = useQuery({
    queryKey: keys.categoryTreeAll(catalogId),
    queryFn: () => apiGet('Catalog/GetCategoryTree', { catalogId, languages: 'all' }),
    enabled: languages.length > 0,
  });
  const node = tree.data ? find(tree.data.items, category.categoryId) : undefined;
  if (!languages.length || !node) return null;
  const stored = Object.fromEntries(languages.map((l) => [l, node.translations?.[l]?.name ?? null]));
  return <Names key={JSON.stringify(stored)} category={category} defaultName={node.name ?? ''} stored={stored} />;
}

function Names({
  category,
  defaultName,
  stored,
}: {
  category: Category;
  defaultName: string;
  stored: Record<string, string | null>;
}) {
  const { t } = useI18n();
  const { departmentId } = useSession();
  const known = useContentLanguages().data?.available ?? [];
  const updateCategory = useUpdateCategory();
  const announce = useAnnounce();
  const [drafts, setDrafts] = useState<Record<string, string>>(() =>
    Object.fromEntries(Object.entries(stored).map(([l, name]) => [l, name ?? ''])),
  );
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const changed = Object.keys(drafts).filter((l) => translationPatch({ name: stored[l] }, { name: drafts[l] ?? '' }));

  async function submit(e: FormEvent) {
    e.preventDefault();
    setBusy(true);
    setError(null);
    try {
      await updateCategory.mutateAsync({
        departmentId,
        catalogId: category.catalogId,
        categoryId: category.categoryId,
        name: defaultName,
        translations: Object.fromEntries(changed.map((l) => [l, { name: drafts[l]?.trim() || null }])),
      });
      announce(t('form.saved'));
    } catch (err) {
      setError(describeError(err, t));
    } finally {
      setBusy(false);
    }
  }

  return (
    <form className="stack" onSubmit={submit} noValidate>
      <fieldset className="plain-fieldset">
        <legend>{t('categories.nameInLanguages')}</legend>
        {Object.keys(drafts).map((l) => {
          const id = `category-name-${l}`;
          const missing = Boolean(defaultName) && !stored[l];
          return (
            <div className="field" key={l}>
              <span className="translate-label">
                <label htmlFor={id}>
                  {t('translate.fieldIn', { field: t('field.name'), language: languageName(l, known) })}
                </label>
                {missing && (
                  <span id={`${id}-missing`} className="badge badge-missing">
                    {t('translate.missing')}
                  </span>
                )}
              </span>
              <input
                id={id}
                value={drafts[l]}
                aria-describedby={missing ? `${id}-missing` : undefined}
                onChange={(e) => setDrafts({ ...drafts, [l]: e.target.value })}
              />
            </div>
          );
        })}
      </fieldset>
      <ErrorText message={error} />
      <button type="submit" disabled={busy || changed.length === 0}>
        {busy ? t('common.working') : t('categories.saveNames')}
      </button>
    </form>
  );
}
