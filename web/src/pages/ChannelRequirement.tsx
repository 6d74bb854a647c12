import { useId } from 'react';
import { ErrorText } from '../components/ErrorText';
import type { MessageKey } from '../i18n/de';
import { useI18n } from '../i18n/i18n';
import {
  QUALITY_RULES,
  REQUIRABLE_FIELDS,
  REQUIREMENT_KINDS,
  type RequirementKind,
  type RequirementRow,
} from '../lib/channel-draft';
import type { FieldProblem } from '../lib/channel-problems';
import { RequirementLimits } from './RequirementLimits';

type Patch = Partial<RequirementRow>;

/**
 * One requirement of the channel form (ChannelDialog.tsx): its kind, what it requires and the
 * extras of that kind, e.g. a range rule's system, feature, bounds and unit. A problem with one
 * of its inputs (the API's 400 naming `requirements[i].<field>`, or a bound that is no number) is
 * shown under that input, which is marked invalid and described by it. Its limits (languages,
 * category) are folded below it (RequirementLimits.tsx).
 */
export function ChannelRequirement({
  row,
  n,
  attributes,
  languages,
  problem,
  onChange,
  onKind,
  onRemove,
}: {
  row: RequirementRow;
  /** Its number in the form (index + 1), in every label. */
  n: number;
  attributes: string[];
  /** The languages the channel publishes, offered as the row's language limit. */
  languages: readonly { code: string; nativeName: string }[];
  problem: FieldProblem | null;
  onChange: (patch: Patch) => void;
  onKind: (kind: RequirementKind) => void;
  onRemove: () => void;
}) {
  const { t } = useI18n();
  const errorOf = (input: keyof RequirementRow) => (problem?.input === input ? problem.message : null);
  const text = (input: keyof RequirementRow, label: MessageKey, numeric = false) => (
    <RowInput
      label={t(label, { n })}
      value={String(row[input] ?? '')}
      error={errorOf(input)}
      numeric={numeric}
      onChange={(value) => onChange({ [input]: value })}
    />
  );
  const rule = row.kind === 'quality' ? row.target : null;
  const choices =
    row.kind === 'field'
      ? REQUIRABLE_FIELDS
      : row.kind === 'quality'
        ? QUALITY_RULES
        : row.kind === 'attribute'
          ? attributes
          : null;
  return (
    <div className="requirement">
      <div className="row requirement-row">
        <label className="field">
          <span>{t('channels.kind', { n })}</span>
          <select value={row.kind} onChange={(e) => onKind(e.target.value as RequirementKind)}>
            {REQUIREMENT_KINDS.map((k) => (
              <option key={k} value={k}>
                {t(`channels.kind.${k}`)}
              </option>
            ))}
          </select>
        </label>
        <RowInput
          label={t(`channels.target.${row.kind}`, { n })}
          value={row.target}
          error={errorOf('target')}
          choices={choices}
          blank={row.kind === 'attribute' ? t('common.notSet') : undefined}
          onChange={(target) => onChange({ target })}
        />
        {row.kind === 'media' && text('min', 'channels.min', true)}
        {(row.kind === 'classification' || row.kind === 'features') && text('release', 'channels.release')}
        {row.kind === 'features' && (
          <label className="field">
            <span>{t('channels.share', { n })}</span>
            <select value={row.share} onChange={(e) => onChange({ share: e.target.value as 'all' | 'mandatory' })}>
              <option value="all">{t('channels.share.all')}</option>
              <option value="mandatory">{t('channels.share.mandatory')}</option>
            </select>
          </label>
        )}
        {rule === 'pattern' && (
          <>
            <RowInput
              label={t('channels.pattern.attribute', { n })}
              value={row.attribute}
              error={errorOf('attribute')}
              choices={attributes}
              blank={t('common.notSet')}
              onChange={(attribute) => onChange({ attribute })}
            />
            {text('pattern', 'channels.pattern')}
          </>
        )}
        {(rule === 'range' || rule === 'releaseRanges') && text('system', 'channels.range.system')}
        {rule === 'range' && (
          <>
            {text('feature', 'channels.range.feature')}
            {text('rangeMin', 'channels.range.min', true)}
            {text('rangeMax', 'channels.range.max', true)}
            {text('unit', 'channels.range.unit')}
          </>
        )}
        {rule === 'releaseRanges' && text('release', 'channels.range.release')}
        <button type="button" className="danger-quiet" onClick={onRemove}>
          {t('channels.removeRequirement', { n })}
        </button>
      </div>
      <RequirementLimits
        row={row}
        n={n}
        languages={languages}
        problem={problem}
        onChange={(next) => onChange({ languages: next.languages, categoryId: next.categoryId })}
      />
    </div>
  );
}

/** A labelled text box or choice with its error under it (aria-invalid, aria-describedby). */
function RowInput({
  label,
  value,
  error,
  choices,
  blank,
  numeric,
  onChange,
}: {
  label: string;
  value: string;
  error: string | null;
  choices?: readonly string[] | null;
  /** The text of an empty first choice, when the choice may be empty. */
  blank?: string;
  numeric?: boolean;
  onChange: (value: string) => void;
}) {
  const id = useId();
  const errorId = `${id}-error`;
  const invalid = error ? { 'aria-invalid': true as const, 'aria-describedby': errorId } : {};
  return (
    <div className="field">
      <label htmlFor={id}>{label}</label>
      {choices ? (
        <select id={id} value={value} onChange={(e) => onChange(e.target.value)} {...invalid}>
          {blank !== undefined && <option value="">{blank}</option>}
          {choices.map((c) => (
            <option key={c} value={c}>
              {c}
            </option>
          ))}
        </select>
      ) : (
        <input
          id={id}
          value={value}
          inputMode={numeric ? 'decimal' : undefined}
          onChange={(e) => onChange(e.target.value)}
          {...invalid}
        />
      )}
      {error && <ErrorText id={errorId} message={error} />}
    </div>
  );
}
