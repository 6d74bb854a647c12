import { useState } from 'react';
import { describeError } from '../../api/errors';
import type { ShopInput, TestConnectionResult } from '../../api/models';
import { useTestConnection } from '../../api/mutations';
import { ErrorText } from '../../components/ErrorText';
import { useI18n } from '../../i18n/i18n';
import { useSession } from '../../session/session';
import { type ConnectorDraft, connectorTestFields } from '../../lib/shop-form';
import { testMessage } from '../../lib/sync-words';
import { TestResult } from './TestResult';

/**
 * "Test these shop settings" in the connection dialog (docs/web.md "Shops"): TestConnection
 * with the shop as edited, through the connector URL, key id, secret and catalog as edited
 * (connectorTestFields), also before a new connection is saved; nothing is saved. `input` is
 * null while the shop has problems, which `onBlocked` shows at their inputs instead.
 */
/** The dialog's labels of the connector fields, to name the missing ones. */
const CONNECTOR_LABELS = {
  catalogId: 'common.catalog',
  connectorUrl: 'sync.url',
  keyId: 'sync.keyId',
  secret: 'sync.secret',
} as const;

export function ShopTest({
  connectionId,
  connector,
  input,
  onBlocked,
}: {
  /** null: a connection not saved yet. */
  connectionId: string | null;
  connector: ConnectorDraft;
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
    const edited = connectorTestFields(connector, connectionId !== null);
    if ('missing' in edited) {
      setError(t('sync.shop.testNeeds', { fields: edited.missing.map((f) => t(CONNECTOR_LABELS[f])).join(', ') }));
      return;
    }
    try {
      const ref = connectionId ? { connectionId } : {};
      setResult(await testConnection.mutateAsync({ departmentId, ...ref, ...edited.fields, shop: input }));
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
