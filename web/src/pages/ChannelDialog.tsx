import { useId, useState, type FormEvent } from 'react';
import { describeError } from '../api/errors';
import { useAttributes, useContentLanguages } from '../api/hooks';
import { useAddChannel, useUpdateChannel } from '../api/mutations';
import type { GetResult } from '../api/operations';
import { useAnnounce } from '../components/Announcer';
import { Dialog } from '../components/Dialog';
import { ErrorText } from '../components/ErrorText';
import { useI18n } from '../i18n/i18n';
import {
  bodyOf,
  newRow,
  QUALITY_RULES,
  REQUIRABLE_FIELDS,
  REQUIREMENT_KINDS,
  type RequirementBody,
  type RequirementKind,
  type RequirementRow,
  rowOf,
} from '../lib/channel-draft';

export type Channel = GetResult<'Catalog/GetChannels'>['items'][number];

/**
 * Add or edit a channel: name, the languages it publishes (of the company's enabled ones) and
 * its requirements, one row each (lib/channel-draft.ts). The API checks every name and answers a
 * 400 naming the row (`requirements[2].purpose`), shown under the form; nothing is written then.
 */
export function ChannelDialog({ channel, onClose }: { channel: Channel | null; onClose: () => void }) {
  const { t } = useI18n();
  const enabled = useContentLanguages().data?.languages ?? [];
  const attributes = useAttributes().data?.items ?? [];
  const add = useAddChannel();
  const update = useUpdateChannel();
  const announce = useAnnounce();
  const [name, setName] = useState(channel?.name ?? '');
  const [languages, setLanguages] = useState<string[]>(channel?.languages ?? []);
  const [rows, setRows] = useState<RequirementRow[]>(() =>
    (channel?.requirements ?? []).map((r) => rowOf(r as RequirementBody)),
  );
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const setRow = (i: number, patch: Partial<RequirementRow>) =>
    setRows(rows.map((r, j) => (j === i ? { ...r, ...patch } : r)));

  async function submit(e: FormEvent) {
    e.preventDefault();
    setBusy(true);
    setError(null);
    try {
      const body = { name, languages, requirements: rows.map(bodyOf) };
      if (channel) await update.mutateAsync({ channelId: channel.channelId, ...body });
      else await add.mutateAsync(body);
      announce(t('channels.saved', { name }));
      onClose();
    } catch (err) {
      setError(describeError(err, t));
    } finally {
      setBusy(false);
    }
  }

  return (
    <Dialog
      title={channel ? t('channels.editTitle', { name: channel.name }) : t('channels.addTitle')}
      open
      onClose={onClose}
      wide
    >
      <form className="stack" onSubmit={submit} noValidate>
        <label className="field">
          <span>{t('field.name')}</span>
          <input value={name} onChange={(e) => setName(e.target.value)} required />
        </label>
        <fieldset className="plain-fieldset">
          <legend>{t('channels.languages')}</legend>
          <div className="language-checks">
            {enabled.map((l) => (
              <label key={l.code} className="check-field">
                <input
                  type="checkbox"
                  checked={languages.includes(l.code)}
                  onChange={(e) =>
                    setLanguages(e.target.checked ? [...languages, l.code] : languages.filter((c) => c !== l.code))
                  }
                />
                <span>
                  {l.nativeName} <span className="muted">({l.code})</span>
                </span>
              </label>
            ))}
          </div>
        </fieldset>
        <fieldset className="plain-fieldset">
          <legend>{t('channels.requirements')}</legend>
          {rows.map((row, i) => (
            // biome-ignore lint/suspicious/noArrayIndexKey: rows have no identity of their own; their order is the requirement's index
            <div key={i} className="row requirement-row">
              <label className="field">
                <span>{t('channels.kind', { n: i + 1 })}</span>
                <select
                  value={row.kind}
                  onChange={(e) =>
                    setRows(rows.map((r, j) => (j === i ? newRow(e.target.value as RequirementKind) : r)))
                  }
                >
                  {REQUIREMENT_KINDS.map((k) => (
                    <option key={k} value={k}>
                      {t(`channels.kind.${k}`)}
                    </option>
                  ))}
                </select>
              </label>
              <TargetInput
                row={row}
                n={i + 1}
                attributes={attributes.map((a) => a.code)}
                onChange={(target) => setRow(i, { target })}
              />
              {row.kind === 'media' && (
                <label className="field">
                  <span>{t('channels.min', { n: i + 1 })}</span>
                  <input inputMode="numeric" value={row.min} onChange={(e) => setRow(i, { min: e.target.value })} />
                </label>
              )}
              {(row.kind === 'classification' || row.kind === 'features') && (
                <label className="field">
                  <span>{t('channels.release', { n: i + 1 })}</span>
                  <input value={row.release} onChange={(e) => setRow(i, { release: e.target.value })} />
                </label>
              )}
              {row.kind === 'features' && (
                <label className="field">
                  <span>{t('channels.share', { n: i + 1 })}</span>
                  <select
                    value={row.share}
                    onChange={(e) => setRow(i, { share: e.target.value as 'all' | 'mandatory' })}
                  >
                    <option value="all">{t('channels.share.all')}</option>
                    <option value="mandatory">{t('channels.share.mandatory')}</option>
                  </select>
                </label>
              )}
              <button type="button" className="danger-quiet" onClick={() => setRows(rows.filter((_, j) => j !== i))}>
                {t('channels.removeRequirement', { n: i + 1 })}
              </button>
            </div>
          ))}
          <button type="button" onClick={() => setRows([...rows, newRow('field')])}>
            {t('channels.addRequirement')}
          </button>
        </fieldset>
        <ErrorText message={error} />
        <div className="form-actions">
          <button type="button" onClick={onClose}>
            {t('common.cancel')}
          </button>
          <button type="submit" className="primary" disabled={busy}>
            {busy ? t('common.working') : t('common.save')}
          </button>
        </div>
      </form>
    </Dialog>
  );
}

/** What a row requires: a choice where the list is known (fields, quality rules, attributes), else text. */
function TargetInput({
  row,
  n,
  attributes,
  onChange,
}: {
  row: RequirementRow;
  n: number;
  attributes: string[];
  onChange: (target: string) => void;
}) {
  const { t } = useI18n();
  const id = useId();
  const label = t(`channels.target.${row.kind}`, { n });
  const choices =
    row.kind === 'field'
      ? REQUIRABLE_FIELDS
      : row.kind === 'quality'
        ? QUALITY_RULES
        : row.kind === 'attribute'
          ? attributes
          : null;
  return (
    <div className="field">
      <label htmlFor={id}>{label}</label>
      {choices ? (
        <select id={id} value={row.target} onChange={(e) => onChange(e.target.value)}>
          {row.kind === 'attribute' && <option value="">{t('common.notSet')}</option>}
          {choices.map((c) => (
            <option key={c} value={c}>
              {c}
            </option>
          ))}
        </select>
      ) : (
        <input id={id} value={row.target} onChange={(e) => onChange(e.target.value)} />
      )}
    </div>
  );
}
