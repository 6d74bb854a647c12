import { useState } from 'react';
import { describeError } from '../api/errors';
import { useI18n } from '../i18n/i18n';
import { Dialog } from './Dialog';
import { ErrorText } from './ErrorText';

interface ConfirmProps {
  title: string;
  /** Says exactly what will be deleted or changed. */
  message: string;
  confirmLabel: string;
  open: boolean;
  onClose: () => void;
  onConfirm: () => Promise<unknown>;
}

/** "Really delete X?" with the API's refusal shown inside the dialog if the action fails. */
export function ConfirmDialog({ title, message, confirmLabel, open, onClose, onConfirm }: ConfirmProps) {
  const { t } = useI18n();
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const close = () => {
    setError(null);
    onClose();
  };
  const run = async () => {
    setBusy(true);
    setError(null);
    try {
      await onConfirm();
      close();
    } catch (err) {
      setError(describeError(err, t));
    } finally {
      setBusy(false);
    }
  };
  return (
    <Dialog
      title={title}
      open={open}
      onClose={close}
      actions={
        <>
          <button type="button" onClick={close}>
            {t('common.cancel')}
          </button>
          <button type="button" className="danger" onClick={run} disabled={busy}>
            {busy ? t('common.working') : confirmLabel}
          </button>
        </>
      }
    >
      <p>{message}</p>
      <ErrorText message={error} />
    </Dialog>
  );
}
