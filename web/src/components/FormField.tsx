import { useId, type ReactNode } from 'react';

interface Props {
  label: string;
  /** Problem of this field, shown under it and tied to the input by aria-describedby. */
  problem?: string | null;
  hint?: string;
  children: (props: { id: string; 'aria-invalid': boolean; 'aria-describedby': string | undefined }) => ReactNode;
}

/** Label, control, hint and problem text of one form field, wired for screen readers. */
export function FormField({ label, problem, hint, children }: Props) {
  const id = useId();
  const hintId = `${id}-hint`;
  const problemId = `${id}-problem`;
  const describedBy = [hint ? hintId : null, problem ? problemId : null].filter(Boolean).join(' ') || undefined;
  return (
    <div className="field">
      <label htmlFor={id}>{label}</label>
      {children({ id, 'aria-invalid': Boolean(problem), 'aria-describedby': describedBy })}
      {hint && (
        <small id={hintId} className="muted">
          {hint}
        </small>
      )}
      {problem && (
        <small id={problemId} className="field-problem" role="alert">
          {problem}
        </small>
      )}
    </div>
  );
}
