import { useState, type FormEvent } from 'react';
import { describeError } from '../api/errors';
import type { Media, ProductDetail } from '../api/models';
import { useAddLink, useDeleteMedia, useReorderMedia, useUpdateLink } from '../api/mutations';
import { useAnnounce } from '../components/Announcer';
import { ConfirmDialog } from '../components/ConfirmDialog';
import { ErrorText } from '../components/ErrorText';
import { useI18n } from '../i18n/i18n';
import { mergeOrder, moveItem } from '../lib/order';
import { useSession } from '../session/session';
import { MEDIA_PURPOSES } from '../api/models';

type Purpose = (typeof MEDIA_PURPOSES)[number];

/** The form's fields as typed; empty optional fields are sent as null (or left out when adding). */
type Draft = { url: string; purpose: Purpose; contentType: string; mimeCode: string; description: string; alt: string };
const EMPTY: Draft = { url: '', purpose: 'normal', contentType: '', mimeCode: '', description: '', alt: '' };

const isLink = (m: Media) => m.kind === 'link';
const draftOf = (m: Media): Draft => ({
  url: m.url ?? '',
  purpose: (MEDIA_PURPOSES as readonly string[]).includes(m.purpose) ? (m.purpose as Purpose) : 'others',
  contentType: m.contentType,
  mimeCode: m.mimeCode ?? '',
  description: m.description ?? '',
  alt: m.alt ?? '',
});
const text = (v: string) => (v.trim() === '' ? null : v.trim());

/**
 * A product's media links (docs/data-model.md "Media"): files kept elsewhere, named by their
 * absolute URL, with purpose, file type, ETIM MIME code, description and alt text. Added with
 * Media/AddLink, changed with UpdateLink, deleted with Delete; ordered among the product's
 * uploaded files (one media order, Media/Reorder) by moving a link past the other links.
 */
export function LinksPanel({ product }: { product: ProductDetail }) {
  const { t } = useI18n();
  const { departmentId } = useSession();
  const announce = useAnnounce();
  const addLink = useAddLink();
  const updateLink = useUpdateLink(product.productId);
  const reorder = useReorderMedia();
  const deleteLink = useDeleteMedia(product.productId);
  const links = product.media.filter(isLink);
  const [editing, setEditing] = useState<Media | null>(null);
  const [draft, setDraft] = useState<Draft>(EMPTY);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const [deleting, setDeleting] = useState<Media | null>(null);
  const field = (key: keyof Draft, value: string) => setDraft((d) => ({ ...d, [key]: value }));

  async function submit(e: FormEvent) {
    e.preventDefault();
    setBusy(true);
    setError(null);
    const common = {
      departmentId,
      url: draft.url.trim(),
      purpose: draft.purpose,
      description: text(draft.description),
      mimeCode: text(draft.mimeCode.toUpperCase()),
      alt: text(draft.alt),
      ...(text(draft.contentType) ? { contentType: draft.contentType.trim() } : {}),
    };
    try {
      if (editing) {
        await updateLink.mutateAsync({ ...common, mediaId: editing.mediaId });
        announce(t('links.updated'));
      } else {
        await addLink.mutateAsync({ ...common, elementId: product.productId });
        announce(t('links.added'));
      }
      setEditing(null);
      setDraft(EMPTY);
    } catch (err) {
      setError(describeError(err, t));
    } finally {
      setBusy(false);
    }
  }

  async function move(from: number, to: number) {
    setError(null);
    try {
      const order = mergeOrder(product.media, moveItem(links, from, to), isLink);
      await reorder.mutateAsync({ departmentId, elementId: product.productId, mediaIds: order.map((m) => m.mediaId) });
      announce(t('media.reordered'));
    } catch (err) {
      setError(describeError(err, t));
    }
  }

  return (
    <section className="stack">
      {links.length === 0 ? (
        <p className="empty">{t('links.none')}</p>
      ) : (
        <ol className="media-list" aria-label={t('links.listLabel')}>
          {links.map((m, i) => (
            <li key={m.mediaId}>
              <div className="media-meta">
                <a href={m.url ?? undefined} target="_blank" rel="noreferrer">
                  {m.fileName}
                </a>
                <span className="muted">
                  {t(`media.purpose.${m.purpose as Purpose}`)} · {m.contentType}
                  {m.mimeCode ? ` · ${m.mimeCode}` : ''}
                </span>
                {m.description && <span>{m.description}</span>}
              </div>
              <div className="media-actions">
                <button
                  type="button"
                  disabled={i === 0}
                  onClick={() => void move(i, i - 1)}
                  aria-label={t('media.moveUp', { name: m.fileName })}
                >
                  ↑
                </button>
                <button
                  type="button"
                  disabled={i === links.length - 1}
                  onClick={() => void move(i, i + 1)}
                  aria-label={t('media.moveDown', { name: m.fileName })}
                >
                  ↓
                </button>
                <button
                  type="button"
                  onClick={() => {
                    setEditing(m);
                    setDraft(draftOf(m));
                    setError(null);
                  }}
                  aria-label={t('links.editNamed', { name: m.fileName })}
                >
                  {t('common.edit')}
                </button>
                <button
                  type="button"
                  className="danger-quiet"
                  onClick={() => setDeleting(m)}
                  aria-label={t('media.deleteNamed', { name: m.fileName })}
                >
                  {t('common.delete')}
                </button>
              </div>
            </li>
          ))}
        </ol>
      )}
      <form onSubmit={submit} aria-label={editing ? t('links.editTitle') : t('links.addTitle')} className="stack">
        <h3>{editing ? t('links.editTitle') : t('links.addTitle')}</h3>
        <label className="field">
          <span>{t('links.url')}</span>
          <input type="url" required value={draft.url} onChange={(e) => field('url', e.target.value)} />
        </label>
        <div className="row">
          <label className="field">
            <span>{t('media.purpose')}</span>
            <select value={draft.purpose} onChange={(e) => field('purpose', e.target.value)}>
              {MEDIA_PURPOSES.map((p) => (
                <option key={p} value={p}>
                  {t(`media.purpose.${p}`)}
                </option>
              ))}
            </select>
          </label>
          <label className="field">
            <span>{t('links.contentType')}</span>
            <input
              value={draft.contentType}
              placeholder="image/jpeg"
              onChange={(e) => field('contentType', e.target.value)}
            />
          </label>
          <label className="field">
            <span>{t('links.mimeCode')}</span>
            <input value={draft.mimeCode} placeholder="MD01" onChange={(e) => field('mimeCode', e.target.value)} />
          </label>
        </div>
        <label className="field">
          <span>{t('links.description')}</span>
          <input value={draft.description} onChange={(e) => field('description', e.target.value)} />
        </label>
        <label className="field">
          <span>{t('links.alt')}</span>
          <input value={draft.alt} onChange={(e) => field('alt', e.target.value)} />
        </label>
        <ErrorText message={error} />
        <div className="actions">
          {editing && (
            <button
              type="button"
              onClick={() => {
                setEditing(null);
                setDraft(EMPTY);
                setError(null);
              }}
            >
              {t('common.cancel')}
            </button>
          )}
          <button type="submit" className="primary" disabled={busy}>
            {busy ? t('common.working') : editing ? t('common.save') : t('links.add')}
          </button>
        </div>
      </form>
      <ConfirmDialog
        open={deleting !== null}
        title={t('links.deleteTitle')}
        message={t('links.deleteText', { name: deleting?.url ?? '' })}
        confirmLabel={t('common.delete')}
        onClose={() => setDeleting(null)}
        onConfirm={async () => {
          await deleteLink.mutateAsync({ departmentId, mediaId: deleting!.mediaId });
          announce(t('media.deleted', { name: deleting!.fileName }));
        }}
      />
    </section>
  );
}
