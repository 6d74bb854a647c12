import { useEffect, useId, useRef, type ReactNode } from 'react';
import { useI18n } from '../i18n/i18n';

interface DialogProps {
  title: string;
  open: boolean;
  onClose: () => void;
  children: ReactNode;
  /** Buttons at the bottom. */
  actions?: ReactNode;
  wide?: boolean;
}

/**
 * A modal on the native `<dialog>`: `showModal()` traps focus and makes the page inert, Escape
 * closes it, and focus returns to the control that opened it.
 */
export function Dialog({ title, open, onClose, children, actions, wide }: DialogProps) {
  const ref = useRef<HTMLDialogElement>(null);
  const opener = useRef<Element | null>(null);
  /** Whether this dialog is showing (its element is gone by the time an unmount's cleanup runs). */
  const shown = useRef(false);
  const titleId = useId();
  const { t } = useI18n();

  useEffect(() => {
    const dialog = ref.current;
    if (!dialog) return;
    if (open && !dialog.open) {
      opener.current = document.activeElement;
      dialog.showModal();
      shown.current = true;
    } else if (!open && dialog.open) {
      dialog.close();
      shown.current = false;
      if (opener.current instanceof HTMLElement) opener.current.focus();
    }
  }, [open]);
  // Most dialogs close by unmounting (`{editing && <XDialog …/>}`), which skips the branch above:
  // focus must still go back to the control that opened the dialog, not to the page's body.
  useEffect(
    () => () => {
      const target = opener.current;
      if (shown.current && target instanceof HTMLElement && target.isConnected) target.focus();
    },
    [],
  );

  return (
    <dialog
      ref={ref}
      className={wide ? 'dialog wide' : 'dialog'}
      aria-labelledby={titleId}
      onCancel={(e) => {
        e.preventDefault();
        onClose();
      }}
    >
      {open && (
        <>
          <header className="dialog-header">
            <h2 id={titleId}>{title}</h2>
            <button type="button" className="icon" onClick={onClose} aria-label={t('common.close')}>
              ×
            </button>
          </header>
          <div className="dialog-body">{children}</div>
          {actions && <footer className="dialog-actions">{actions}</footer>}
        </>
      )}
    </dialog>
  );
}
