import { useEffect, useRef, useState, type KeyboardEvent } from 'react';
import { describeError } from '../../api/errors';
import type { useSetValue } from '../../api/mutations';
import { PRODUCT_STATUSES } from '../../api/models';
import { useI18n } from '../../i18n/i18n';
import { displayNumber, parseInput, type ValueKind } from '../../lib/values';
import { useSession } from '../../session/session';

interface Props {
  elementId: string;
  field: string;
  /** What the user calls the field, for the accessible names. */
  label: string;
  rowLabel: string;
  value: string | null;
  kind: ValueKind;
  allowed?: readonly string[];
  unit?: string | null;
  /** The content language the value is written in (SetValue `language`); absent: the catalog's default. */
  language?: string;
  /** Set when the value is a missing translation: the marker shown instead of the empty value. */
  missing?: string;
  /** The SetValue mutation of the list the cell is in (`useSetValue().mutateAsync`). */
  setValue: SaveValue;
  onSaved: (value: string) => void;
}

export type SaveValue = ReturnType<typeof useSetValue>['mutateAsync'];

/**
 * A grid cell that edits one value in place through SetValue. Enter or a click opens the input,
 * Enter saves, Escape cancels; the API's refusal stays under the cell until the next try.
 */
export function InlineCell({
  elementId,
  field,
  label,
  rowLabel,
  value,
  kind,
  allowed,
  unit,
  language,
  missing,
  setValue,
  onSaved,
}: Props) {
  const { t, lang } = useI18n();
  const { departmentId } = useSession();
  const [editing, setEditing] = useState(false);
  const [draft, setDraft] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const input = useRef<HTMLInputElement & HTMLSelectElement>(null);
  const button = useRef<HTMLButtonElement>(null);
  // Set while a save runs or the editor closes, so the blur that follows Enter or Escape does not save (again).
  const settled = useRef(false);
  const numeric = kind === 'decimal' || kind === 'number' || kind === 'integer';
  const shown = numeric
    ? displayNumber(value, lang)
    : kind === 'enum' && field === 'status' && value
      ? t(`status.${value as 'active'}`)
      : (value ?? '');

  useEffect(() => {
    if (editing) input.current?.focus();
  }, [editing]);

  const open = () => {
    settled.current = false;
    setDraft(numeric ? displayNumber(value, lang) : (value ?? ''));
    setEditing(true);
  };
  const close = () => {
    settled.current = true;
    setEditing(false);
    window.setTimeout(() => button.current?.focus(), 0);
  };

  async function save() {
    if (settled.current) return;
    const parsed = parseInput(kind, draft, { unit, allowed });
    if (!parsed.ok) {
      setError(t(`value.${parsed.problem}`));
      return;
    }
    if (parsed.value === (value ?? '')) {
      setError(null);
      close();
      return;
    }
    setBusy(true);
    settled.current = true;
    try {
      const result = await setValue({
        departmentId,
        elementId,
        field,
        value: parsed.value,
        ...(language ? { language } : {}),
      });
      setError(null);
      onSaved(result.value);
      close();
    } catch (err) {
      settled.current = false;
      setError(describeError(err, t));
    } finally {
      setBusy(false);
    }
  }

  const name = t('grid.editCell', { field: label, row: rowLabel });
  const onKey = (e: KeyboardEvent) => {
    if (e.key === 'Enter') {
      e.preventDefault();
      void save();
    } else if (e.key === 'Escape') {
      e.preventDefault();
      e.stopPropagation();
      settled.current = true;
      setError(null);
      close();
    }
  };
  return (
    <div className={error ? 'inline-cell has-error' : 'inline-cell'}>
      {editing ? (
        kind === 'enum' && (allowed || field === 'status') ? (
          <select
            ref={input}
            aria-label={name}
            value={draft}
            disabled={busy}
            onChange={(e) => setDraft(e.target.value)}
            onKeyDown={onKey}
            onBlur={() => void save()}
          >
            {(allowed ?? PRODUCT_STATUSES).map((v) => (
              <option key={v} value={v}>
                {field === 'status' ? t(`status.${v as 'active'}`) : v}
              </option>
            ))}
          </select>
        ) : (
          <input
            ref={input}
            aria-label={name}
            value={draft}
            disabled={busy}
            onChange={(e) => setDraft(e.target.value)}
            onKeyDown={onKey}
            onBlur={() => {
              if (!error) void save();
            }}
          />
        )
      ) : (
        <button
          ref={button}
          type="button"
          className="cell-button"
          onClick={open}
          aria-label={`${name}: ${shown || missing || t('common.empty')}`}
        >
          {shown ||
            (missing ? <span className="badge badge-missing">{missing}</span> : <span className="muted">–</span>)}
        </button>
      )}
      {error && (
        <span className="cell-error" role="alert">
          {error}
        </span>
      )}
    </div>
  );
}
