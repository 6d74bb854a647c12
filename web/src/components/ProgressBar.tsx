import { useI18n } from '../i18n/i18n';

/** A job's progress as a native `<progress>` with a readable label (indeterminate while total is 0). */
export function ProgressBar({ done, total, label }: { done: number; total: number; label: string }) {
  const { num } = useI18n();
  const percent = total > 0 ? Math.round((done / total) * 100) : null;
  return (
    <div className="progress">
      <progress aria-label={label} max={total > 0 ? total : undefined} value={total > 0 ? done : undefined} />
      <span className="muted">{percent === null ? '…' : `${num(done)} / ${num(total)} (${percent} %)`}</span>
    </div>
  );
}
