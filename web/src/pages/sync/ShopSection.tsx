import { useQueryClient } from '@tanstack/react-query';
import { type ReactNode, useState } from 'react';
import { describeError } from '../../api/errors';
import { shopDefaultsQuery, useShopDefaults } from '../../api/hooks';
import { type ConnectionShop, SHOP_KINDS, type ShopDefaults, type ShopKind } from '../../api/models';
import { ErrorText } from '../../components/ErrorText';
import { FormField } from '../../components/FormField';
import type { MessageKey } from '../../i18n/de';
import { useI18n } from '../../i18n/i18n';
import {
  type Catalogish,
  credentialFields,
  draftForKind,
  draftOfShop,
  type ShopDraft,
  type shopProblems,
} from '../../lib/shop-form';
import { MappingEditor } from './MappingEditor';

interface Props {
  /** The catalog chosen in the dialog (its price types and feature systems are the mapping's choices). */
  catalogId: string;
  /** The connection's shop as stored (null: none yet). */
  stored: ConnectionShop | null;
  /** The form's shop; null: no shop (a stored one is removed on save). */
  draft: ShopDraft | null;
  onChange: (draft: ShopDraft | null) => void;
  catalog: Catalogish;
  problems: ReturnType<typeof shopProblems>;
  /** Shown under the mapping while a shop is set (the dialog's test of these settings). */
  children?: ReactNode;
}

/**
 * The connection's shop (docs/web.md "Shops"): the kind, then what GetShopDefaults says the kind
 * needs (its URL, one of its credential sets) and the mapping with the kind's defaults.
 */
export function ShopSection({ catalogId, stored, draft, onChange, catalog, problems, children }: Props) {
  const { t } = useI18n();
  const client = useQueryClient();
  const [pending, setPending] = useState<ShopKind | null>(null);
  const [error, setError] = useState<string | null>(null);
  const defaults = useShopDefaults(draft?.kind ?? null);

  async function chooseKind(value: string) {
    setError(null);
    if (value === '') {
      setPending(null);
      onChange(null);
      return;
    }
    const kind = value as ShopKind;
    setPending(kind);
    try {
      const loaded = await client.fetchQuery(shopDefaultsQuery(kind));
      // Back to the stored kind: its stored settings; another kind: that kind's defaults.
      onChange(stored?.kind === kind ? draftOfShop(stored, catalog) : draftForKind(loaded, catalog, draft?.url ?? ''));
    } catch (err) {
      setError(describeError(err, t));
    } finally {
      setPending(null);
    }
  }

  const ready = draft && defaults.data?.kind === draft.kind ? defaults.data : null;
  return (
    <fieldset className="plain-fieldset span-2 shop-section">
      <legend>{t('sync.shop')}</legend>
      <p className="muted">{t('sync.shop.intro')}</p>
      <div className="form-grid">
        <FormField label={t('sync.shop.kind')}>
          {(p) => (
            <select {...p} value={pending ?? draft?.kind ?? ''} onChange={(e) => void chooseKind(e.target.value)}>
              <option value="">{t('sync.shop.kind.none')}</option>
              {SHOP_KINDS.map((k) => (
                <option key={k} value={k}>
                  {t(`sync.shop.kind.${k}`)}
                </option>
              ))}
            </select>
          )}
        </FormField>
        {ready?.urlRequired && draft && (
          <FormField
            label={t('sync.shop.url')}
            hint={t(`sync.shop.urlHint.${draft.kind}` as MessageKey)}
            problem={problems.url ? t(`sync.shop.problem.${problems.url}`) : null}
          >
            {(p) => (
              <input
                {...p}
                type="url"
                value={draft.url}
                onChange={(e) => onChange({ ...draft, url: e.target.value })}
              />
            )}
          </FormField>
        )}
      </div>
      {(pending || (draft && defaults.isPending)) && (
        <p className="muted" role="status">
          {t('sync.shop.loading')}
        </p>
      )}
      <ErrorText message={error ?? (defaults.error ? describeError(defaults.error, t) : null)} />
      {stored && !draft && !pending && <p className="notice">{t('sync.shop.removed')}</p>}
      {ready && draft && (
        <>
          <Credentials
            draft={draft}
            defaults={ready}
            onChange={onChange}
            keeps={Boolean(stored?.hasCredentials && stored.kind === draft.kind)}
            problem={problems.credentials ? t(`sync.shop.problem.${problems.credentials}`) : null}
          />
          <MappingEditor
            catalogId={catalogId}
            draft={draft}
            defaults={ready}
            catalog={catalog}
            onChange={onChange}
            problems={problems}
          />
          {children}
          <div>
            <button type="button" className="danger-quiet" onClick={() => void chooseKind('')}>
              {t('sync.shop.remove')}
            </button>
          </div>
        </>
      )}
    </fieldset>
  );
}

function Credentials({
  draft,
  defaults,
  onChange,
  keeps,
  problem,
}: {
  draft: ShopDraft;
  defaults: ShopDefaults;
  onChange: (draft: ShopDraft) => void;
  keeps: boolean;
  problem: string | null;
}) {
  const { t } = useI18n();
  const fields = credentialFields(draft, defaults);
  const label = (name: string) => t(`sync.shop.cred.${name}` as MessageKey);
  if (fields.length === 0) return <p className="muted">{t('sync.shop.noCredentials')}</p>;
  return (
    <fieldset className="plain-fieldset">
      <legend>{t('sync.shop.credentials')}</legend>
      {keeps && <p className="muted">{t('sync.shop.credKeep')}</p>}
      {defaults.credentials.length > 1 && (
        <div role="radiogroup" aria-label={t('sync.shop.credentialSet')} className="toolbar">
          {defaults.credentials.map((set, i) => (
            <label key={set.map((f) => f.name).join('+')} className="check-field">
              <input
                type="radio"
                name="credential-set"
                checked={draft.credentialSet === i}
                onChange={() => onChange({ ...draft, credentialSet: i, credentials: {} })}
              />
              <span>{set.map((f) => label(f.name)).join(' + ')}</span>
            </label>
          ))}
        </div>
      )}
      <div className="form-grid">
        {fields.map((f) => (
          <FormField key={f.name} label={label(f.name)}>
            {(p) => (
              <input
                {...p}
                type={f.secret ? 'password' : 'text'}
                autoComplete="off"
                value={draft.credentials[f.name] ?? ''}
                onChange={(e) =>
                  onChange({ ...draft, credentials: { ...draft.credentials, [f.name]: e.target.value } })
                }
              />
            )}
          </FormField>
        ))}
      </div>
      <ErrorText message={problem} />
    </fieldset>
  );
}
