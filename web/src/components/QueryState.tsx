import type { ReactNode } from 'react';
import { describeError, isUnsupported } from '../api/errors';
import { useI18n } from '../i18n/i18n';
import { ErrorText } from './ErrorText';

interface Props {
  isPending: boolean;
  error: unknown;
  children?: ReactNode;
  /** Text when the server does not offer the operation yet (a 404 "route not found"). */
  unsupportedText?: string;
}

/** Loading, failure and "not on this server yet" for a query; the children once data is there. */
export function QueryState({ isPending, error, children, unsupportedText }: Props) {
  const { t } = useI18n();
  if (error) {
    if (isUnsupported(error)) {
      return (
        <p className="notice" role="status">
          {unsupportedText ?? t('err.unsupported')}
        </p>
      );
    }
    return <ErrorText message={describeError(error, t)} />;
  }
  if (isPending) {
    return (
      <p className="muted" role="status" aria-live="polite">
        {t('common.loading')}
      </p>
    );
  }
  return <>{children}</>;
}
