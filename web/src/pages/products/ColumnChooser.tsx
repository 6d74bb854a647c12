import { useI18n } from '../../i18n/i18n';
import type { GridColumn } from './columns';

/** Which columns the grid shows (built-in fields and attributes); the choice is remembered. */
export function ColumnChooser({
  all,
  chosen,
  onChange,
}: {
  all: GridColumn[];
  chosen: string[];
  onChange: (ids: string[]) => void;
}) {
  const { t } = useI18n();
  const set = new Set(chosen);
  return (
    <details className="popover">
      <summary>{t('grid.columns')}</summary>
      <fieldset className="popover-body">
        <legend>{t('grid.columnsLegend')}</legend>
        {all.map((c) => (
          <label key={c.id} className="check-field">
            <input
              type="checkbox"
              checked={set.has(c.id)}
              disabled={c.id === 'sku'}
              onChange={(e) => onChange(e.target.checked ? [...chosen, c.id] : chosen.filter((id) => id !== c.id))}
            />
            <span>
              {c.label ?? t(c.labelKey!)}
              {c.attribute ? ` · ${t('grid.attribute')}` : ''}
            </span>
          </label>
        ))}
      </fieldset>
    </details>
  );
}
