import { useEffect, useId, useState } from 'react';
import { useCategorySearch } from '../api/hooks';
import { useI18n } from '../i18n/i18n';

/**
 * A search box for a category of one catalog by name (SearchCategories, up to 20 hits, each
 * shown with its path): the shortcut beside the level-by-level selects of a requirement's
 * category limit (RequirementLimits.tsx) when the tree is large. Searches after a short pause,
 * from two characters on; choosing a hit hands its id up and empties the box.
 */
export function CategorySearch({
  n,
  catalogId,
  onPick,
}: {
  n: number;
  catalogId: string;
  onPick: (categoryId: string) => void;
}) {
  const { t } = useI18n();
  const id = useId();
  const [text, setText] = useState('');
  const [q, setQ] = useState('');
  useEffect(() => {
    const timer = window.setTimeout(() => setQ(text.trim()), 250);
    return () => window.clearTimeout(timer);
  }, [text]);
  const found = useCategorySearch(catalogId, q);
  const items = found.data?.items ?? [];
  return (
    <div className="field category-search">
      <label htmlFor={id}>{t('channels.limits.search', { n })}</label>
      <input id={id} type="search" value={text} onChange={(e) => setText(e.target.value)} />
      {q.length >= 2 &&
        found.isSuccess &&
        text.trim() === q &&
        (items.length ? (
          <ul className="search-hits" aria-label={t('channels.limits.searchHits', { n })}>
            {items.map((c) => (
              <li key={c.categoryId}>
                <button
                  type="button"
                  onClick={() => {
                    setText('');
                    setQ('');
                    onPick(c.categoryId);
                  }}
                >
                  {c.path.map((p) => p.name).join(' › ')}
                </button>
              </li>
            ))}
          </ul>
        ) : (
          <p className="muted small">{t('channels.limits.searchNone')}</p>
        ))}
    </div>
  );
}
