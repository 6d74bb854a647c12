import { useState, type FormEvent } from 'react';
import { ApiError } from '../api/client';
import { describeError } from '../api/errors';
import { useAttributes, useContentLanguages } from '../api/hooks';
import { useAddChannel, useUpdateChannel } from '../api/mutations';
import type { GetResult } from '../api/operations';
import { useAnnounce } from '../components/Announcer';
import { Dialog } from '../components/Dialog';
import { ErrorText } from '../components/ErrorText';
import { useI18n } from '../i18n/i18n';
import { bodyOf, newRow, type RequirementBody, type RequirementRow, rowOf } from '../lib/channel-draft';
import { draftProblem, type FieldProblem, problemAt } from '../lib/channel-problems';
import { ChannelRequirement } from './ChannelRequirement';
import { ChannelReviewForm } from './ChannelReviewForm';

export type Channel = GetResult<'Catalog/GetChannels'>['items'][number];

/**
 * Add or edit a channel: name, the languages it publishes (of the company's enabled ones) and
 * its requirements, one row each (lib/channel-draft.ts, ChannelRequirement.tsx). The API checks
 * every name and answers a 400 naming the row (`requirements[2].purpose`), shown under that
 * row's input (lib/channel-problems.ts), else under the form; nothing is written then. A row's
 * language limit offers the languages checked above (pages/RequirementLimits.tsx). A saved
 * channel's review before publishing is set below, in its own form (ChannelReviewForm.tsx).
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
  // A key per row for React, kept through removals: a row's own state (its open limits, a
  // category picked level by level) must not pass to the row below when one is removed.
  const [rowKeys, setRowKeys] = useState<number[]>(() => rows.map((_, i) => i));
  const [error, setError] = useState<string | null>(null);
  const [problem, setProblem] = useState<FieldProblem | null>(null);
  const [busy, setBusy] = useState(false);
  const setRow = (i: number, patch: Partial<RequirementRow>) =>
    setRows(rows.map((r, j) => (j === i ? { ...r, ...patch } : r)));

  async function submit(e: FormEvent) {
    e.preventDefault();
    setError(null);
    const typed = draftProblem(rows, t('channels.range.notANumber'));
    setProblem(typed);
    if (typed) return;
    setBusy(true);
    try {
      const body = { name, languages, requirements: rows.map(bodyOf) };
      if (channel) await update.mutateAsync({ channelId: channel.channelId, ...body });
      else await add.mutateAsync(body);
      announce(t('channels.saved', { name }));
      onClose();
    } catch (err) {
      const described = describeError(err, t);
      const at = err instanceof ApiError ? problemAt(rows, err.message) : null;
      if (at) setProblem({ ...at, message: described });
      else setError(described);
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
            <ChannelRequirement
              key={rowKeys[i]}
              row={row}
              n={i + 1}
              attributes={attributes.map((a) => a.code)}
              // (a limit's language the channel no longer publishes stays offered, to be unchecked)
              languages={enabled.filter((l) => languages.includes(l.code) || row.languages?.includes(l.code))}
              problem={problem?.row === i ? problem : null}
              onChange={(patch) => setRow(i, patch)}
              onKind={(kind) =>
                setRows(
                  rows.map((r, j) =>
                    j === i ? { ...newRow(kind), languages: r.languages, categoryId: r.categoryId } : r,
                  ),
                )
              }
              onRemove={() => {
                setProblem(null);
                setRows(rows.filter((_, j) => j !== i));
                setRowKeys(rowKeys.filter((_, j) => j !== i));
              }}
            />
          ))}
          <button
            type="button"
            onClick={() => {
              setRows([...rows, newRow('field')]);
              setRowKeys([...rowKeys, Math.max(-1, ...rowKeys) + 1]);
            }}
          >
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
      {channel && <ChannelReviewForm channel={channel} />}
    </Dialog>
  );
}
