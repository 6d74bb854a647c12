import { useEffect, useState, type DragEvent } from 'react';
import { describeError, isUnsupported } from '../api/errors';
import { useDeleteMedia, useRefreshProduct, useReorderMedia, useUploadMedia } from '../api/mutations';
import type { Media, ProductDetail } from '../api/models';
import { useAnnounce } from '../components/Announcer';
import { ConfirmDialog } from '../components/ConfirmDialog';
import { ErrorText } from '../components/ErrorText';
import { useI18n } from '../i18n/i18n';
import { mergeOrder, moveItem } from '../lib/order';
import { useSession } from '../session/session';
import { MEDIA_PURPOSES } from '../api/models';

const ACCEPT = 'image/jpeg,image/png,image/gif,image/webp,image/svg+xml,application/pdf';

const isFile = (m: Media) => m.kind === 'file';

/**
 * Pictures and documents of a product: drop or pick files, see previews, order them, delete
 * them. Links (files kept elsewhere) have their own tab (LinksPanel); both share one order.
 */
export function MediaPanel({ product }: { product: ProductDetail }) {
  const { t, num } = useI18n();
  const { departmentId } = useSession();
  const refreshProduct = useRefreshProduct();
  const uploadMedia = useUploadMedia();
  const reorderMedia = useReorderMedia();
  const deleteMedia = useDeleteMedia(product.productId);
  const announce = useAnnounce();
  const [order, setOrder] = useState<Media[]>(() => product.media.filter(isFile));
  const [purpose, setPurpose] = useState<(typeof MEDIA_PURPOSES)[number]>('normal');
  const [error, setError] = useState<string | null>(null);
  const [uploading, setUploading] = useState<string | null>(null);
  const [over, setOver] = useState(false);
  const [dragged, setDragged] = useState<number | null>(null);
  const [deleting, setDeleting] = useState<Media | null>(null);
  useEffect(() => setOrder(product.media.filter(isFile)), [product.media]);
  const refresh = () => refreshProduct(product.productId);

  async function upload(files: FileList | File[]) {
    setError(null);
    const problems: string[] = [];
    for (const file of Array.from(files)) {
      setUploading(file.name);
      try {
        await uploadMedia.mutateAsync({
          query: { departmentId, elementId: product.productId, fileName: file.name, purpose },
          file,
        });
        announce(t('media.uploaded', { name: file.name }));
      } catch (err) {
        problems.push(`${file.name}: ${describeError(err, t)}`);
      }
    }
    setUploading(null);
    if (problems.length) setError(problems.join(' '));
    await refresh();
  }

  async function saveOrder(next: Media[]) {
    const previous = order;
    setOrder(next);
    setError(null);
    try {
      await reorderMedia.mutateAsync({
        departmentId,
        elementId: product.productId,
        mediaIds: mergeOrder(product.media, next, isFile).map((m) => m.mediaId),
      });
      announce(t('media.reordered'));
    } catch (err) {
      setOrder(previous);
      setError(isUnsupported(err) ? t('media.reorderUnsupported') : describeError(err, t));
    }
  }

  const onDrop = (e: DragEvent) => {
    e.preventDefault();
    setOver(false);
    if (e.dataTransfer.files.length) void upload(e.dataTransfer.files);
  };

  return (
    <section className="stack">
      <fieldset
        className={over ? 'dropzone over' : 'dropzone'}
        onDragOver={(e) => {
          if (e.dataTransfer.types.includes('Files')) {
            e.preventDefault();
            setOver(true);
          }
        }}
        onDragLeave={() => setOver(false)}
        onDrop={onDrop}
      >
        <legend>{t('media.dropHere')}</legend>
        <div className="row">
          <label className="field">
            <span>{t('media.purpose')}</span>
            <select value={purpose} onChange={(e) => setPurpose(e.target.value as typeof purpose)}>
              {MEDIA_PURPOSES.map((p) => (
                <option key={p} value={p}>
                  {t(`media.purpose.${p}`)}
                </option>
              ))}
            </select>
          </label>
          <label className="file-button">
            <span>{t('media.choose')}</span>
            <input
              type="file"
              multiple
              accept={ACCEPT}
              onChange={(e) => {
                if (e.target.files?.length) void upload(e.target.files);
                e.target.value = '';
              }}
            />
          </label>
        </div>
        <p className="muted">{t('media.limits')}</p>
        {uploading && <p role="status">{t('media.uploading', { name: uploading })}</p>}
      </fieldset>
      <ErrorText message={error} />
      {order.length === 0 ? (
        <p className="empty">{t('media.none')}</p>
      ) : (
        <ol className="media-list" aria-label={t('media.listLabel')}>
          {order.map((m, i) => (
            <li
              key={m.mediaId}
              draggable
              onDragStart={() => setDragged(i)}
              onDragOver={(e) => {
                if (dragged !== null) e.preventDefault();
              }}
              onDrop={(e) => {
                e.preventDefault();
                e.stopPropagation();
                if (dragged !== null && dragged !== i) void saveOrder(moveItem(order, dragged, i));
                setDragged(null);
              }}
              className={dragged === i ? 'dragging' : undefined}
            >
              {m.contentType.startsWith('image/') ? (
                <img src={`/api/Media/Get?mediaId=${m.mediaId}`} alt={m.fileName} loading="lazy" />
              ) : (
                <a className="doc-thumb" href={`/api/Media/Get?mediaId=${m.mediaId}`} target="_blank" rel="noreferrer">
                  PDF
                </a>
              )}
              <div className="media-meta">
                <strong>{m.fileName}</strong>
                <span className="muted">
                  {t(`media.purpose.${m.purpose as 'normal'}`)} · {num(Math.max(1, Math.round(m.size / 1024)))} KB
                </span>
              </div>
              <div className="media-actions">
                <button
                  type="button"
                  disabled={i === 0}
                  onClick={() => void saveOrder(moveItem(order, i, i - 1))}
                  aria-label={t('media.moveUp', { name: m.fileName })}
                >
                  ↑
                </button>
                <button
                  type="button"
                  disabled={i === order.length - 1}
                  onClick={() => void saveOrder(moveItem(order, i, i + 1))}
                  aria-label={t('media.moveDown', { name: m.fileName })}
                >
                  ↓
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
      <ConfirmDialog
        open={deleting !== null}
        title={t('media.deleteTitle')}
        message={t('media.deleteText', { name: deleting?.fileName ?? '' })}
        confirmLabel={t('common.delete')}
        onClose={() => setDeleting(null)}
        onConfirm={async () => {
          await deleteMedia.mutateAsync({ departmentId, mediaId: deleting!.mediaId });
          announce(t('media.deleted', { name: deleting!.fileName }));
        }}
      />
    </section>
  );
}
