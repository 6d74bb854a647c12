import { useQuery } from '@tanstack/react-query';
import { useId, useState } from 'react';
import { apiGet } from '../api/client';
import { useCatalogs, useChannels } from '../api/hooks';
import { keys } from '../api/keys';
import type { CategoryTreeNode } from '../api/models';
import { QueryState } from '../components/QueryState';
import { useI18n } from '../i18n/i18n';
import type { ScopeIds } from '../lib/team';

/** The scopes as the picker edits them. */
export interface ScopeChoice {
  catalogIds: string[];
  categoryIds: string[];
  channelIds: string[];
}

export const noScope = (): ScopeChoice => ({ catalogIds: [], categoryIds: [], channelIds: [] });
export const scopeChoiceOf = (s: ScopeIds): ScopeChoice => ({
  catalogIds: [...s.catalogIds],
  categoryIds: [...s.categoryIds],
  channelIds: [...s.channelIds],
});

const toggled = (list: readonly string[], id: string) =>
  list.includes(id) ? list.filter((x) => x !== id) : [...list, id];

/**
 * The catalog, category-subtree and channel pickers of a member's access (docs/teams.md
 * "Catalog, category and channel scopes"), used by the access dialog and the invite form:
 * checkboxes for catalogs and channels, and one catalog's category tree at a time, whose ticked
 * categories stay chosen when another catalog's tree is shown. Nothing chosen: everything.
 */
export function ScopePicker({ value, onChange }: { value: ScopeChoice; onChange: (next: ScopeChoice) => void }) {
  const { t } = useI18n();
  const catalogs = useCatalogs();
  const channels = useChannels();
  const items = catalogs.data?.items ?? [];
  const [treeCatalog, setTreeCatalog] = useState<string>('');
  const shownCatalog = treeCatalog || items[0]?.catalogId || '';
  const tree = useQuery({
    queryKey: keys.categoryTree(shownCatalog),
    queryFn: () => apiGet('Catalog/GetCategoryTree', { catalogId: shownCatalog }),
    enabled: Boolean(shownCatalog),
  });
  const treeLabel = useId();

  const renderTree = (nodes: CategoryTreeNode[]) => (
    <ul className="check-tree">
      {nodes.map((n) => (
        <li key={n.categoryId}>
          <label className="check-field">
            <input
              type="checkbox"
              name="categoryIds"
              value={n.categoryId}
              checked={value.categoryIds.includes(n.categoryId)}
              onChange={() => onChange({ ...value, categoryIds: toggled(value.categoryIds, n.categoryId) })}
            />
            <span>{n.name}</span>
          </label>
          {n.children?.length > 0 && renderTree(n.children)}
        </li>
      ))}
    </ul>
  );

  return (
    <div className="stack">
      <p className="muted">{t('team.scopeHint')}</p>
      <fieldset>
        <legend>{t('team.scope.catalogs')}</legend>
        <QueryState isPending={catalogs.isPending} error={catalogs.error}>
          {items.map((c) => (
            <label key={c.catalogId} className="check-field">
              <input
                type="checkbox"
                name="catalogIds"
                value={c.catalogId}
                checked={value.catalogIds.includes(c.catalogId)}
                onChange={() => onChange({ ...value, catalogIds: toggled(value.catalogIds, c.catalogId) })}
              />
              <span>{c.name}</span>
            </label>
          ))}
        </QueryState>
      </fieldset>
      <fieldset>
        <legend>
          {t('team.scope.categories')}
          {value.categoryIds.length > 0 && ` (${value.categoryIds.length})`}
        </legend>
        {items.length > 1 && (
          <label className="field">
            <span id={treeLabel}>{t('team.scopeCatalogOf')}</span>
            <select value={shownCatalog} onChange={(e) => setTreeCatalog(e.target.value)} aria-labelledby={treeLabel}>
              {items.map((c) => (
                <option key={c.catalogId} value={c.catalogId}>
                  {c.name}
                </option>
              ))}
            </select>
          </label>
        )}
        {shownCatalog && (
          <QueryState isPending={tree.isPending} error={tree.error}>
            {renderTree(tree.data?.items ?? [])}
          </QueryState>
        )}
      </fieldset>
      <fieldset>
        <legend>{t('team.scope.channels')}</legend>
        <QueryState isPending={channels.isPending} error={channels.error}>
          {(channels.data?.items ?? []).map((c) => (
            <label key={c.channelId} className="check-field">
              <input
                type="checkbox"
                name="channelIds"
                value={c.channelId}
                checked={value.channelIds.includes(c.channelId)}
                onChange={() => onChange({ ...value, channelIds: toggled(value.channelIds, c.channelId) })}
              />
              <span>{c.name}</span>
            </label>
          ))}
        </QueryState>
      </fieldset>
    </div>
  );
}
