import type { ReactNode } from 'react';
import { useI18n } from '../i18n/i18n';

/** A column header: its text, or its text and a class (`num` right-aligns a number column). */
export type Column = string | { label: string; className: string };

/**
 * A list table whose rows end in an actions cell (RowActions or the screen's own buttons): the
 * headers given, then the actions column's header, which only screen readers hear. `children`
 * are the body's rows.
 */
export function ActionsTable({
  columns,
  label,
  caption,
  children,
}: {
  columns: Column[];
  /** The table's accessible name given as an attribute ... */
  label?: string;
  /** ... or as a caption only screen readers hear. */
  caption?: string;
  children: ReactNode;
}) {
  const { t } = useI18n();
  return (
    <table className="table" aria-label={label}>
      {caption && <caption className="visually-hidden">{caption}</caption>}
      <thead>
        <tr>
          {columns.map((c) =>
            typeof c === 'string' ? (
              <th scope="col" key={c}>
                {c}
              </th>
            ) : (
              <th scope="col" key={c.label} className={c.className}>
                {c.label}
              </th>
            ),
          )}
          <th scope="col">
            <span className="visually-hidden">{t('common.actions')}</span>
          </th>
        </tr>
      </thead>
      <tbody>{children}</tbody>
    </table>
  );
}
