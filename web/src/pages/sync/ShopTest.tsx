import { useState } from 'react';
import { describeError } from '../../api/errors';
import type { ShopInput, TestConnectionResult } from '../../api/models';
import { useTestConnection } from '../../api/mutations';
import { ErrorText } from '../../components/ErrorText';
import { useI18n } from '../../i18n/i18n';
import { useSession } from '../../session/session';
import { testMessage } from '../../lib/sync-words';
import { TestResult } from './TestResult';

/**
 * "Test these shop settings" in the connection dialog (docs/web.md "Shops"): TestConnection
 * with the shop as edited, through the saved connection's connector; nothing is saved. `input`
 * is null while the form has problems, which `onBlocked` shows at their inputs instead.
 */
export function ShopTest({
  connectionId,
  input,
  onBlocked,
}: {
  connectionId: string;
  input: ShopInput | null;
  onBlocked: () => void;
}) {
  const { t } = useI18n();
  const { departmentId } = useSession();
  const testConnection = useTestConnection();
  const [result, setResult] = useState<TestConnectionResult | null>(null);
  const [error, setError] = useState<string | null>(null);

  async function test() {
    setResult(null);
    setError(null);
    if (!input) {
      onBlocked();
      return;
    }
    try {
      setResult(await testConnection.mutateAsync({ departmentId, connectionId, shop: input }));
    } catch (err) {
      setError(describeError(err, t));
    }
  }

  const text = testConnection.isPending ? t('sync.shop.testing') : result ? testMessage(result, t) : '';
  return (
    <div className="stack shop-test">
      <div className="toolbar">
        <button type="button" onClick={() => void test()} disabled={testConnection.isPending}>
          {t('sync.shop.test')}
        </button>
        <small className="muted">{t('sync.shop.testHint')}</small>
      </div>
      {/* Always present, so that screen readers announce what it comes to say. */}
      <p role="status" className={!text ? undefined : result && !result.ok ? 'error-text' : 'notice'}>
        {text}
      </p>
      {result?.shop && <TestResult shop={result.shop} warnings={result.warnings ?? []} />}
      <ErrorText message={error} />
    </div>
  );
}
