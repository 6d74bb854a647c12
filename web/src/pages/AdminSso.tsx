import { useQuery } from '@tanstack/react-query';
import { useEffect, useState, type FormEvent } from 'react';
import { apiGet } from '../api/client';
import { describeError } from '../api/errors';
import { keys } from '../api/keys';
import { useRoles } from '../api/hooks';
import { type MemberRole, ROLES } from '../api/models';
import { useCreateScimToken, useRevokeScimToken, useSetSsoSettings } from '../api/mutations';
import { useAnnounce } from '../components/Announcer';
import { ErrorText } from '../components/ErrorText';
import { QueryState } from '../components/QueryState';
import { useI18n } from '../i18n/i18n';

interface Form {
  slug: string;
  issuer: string;
  clientId: string;
  clientSecret: string;
  scopes: string;
  groupsClaim: string;
  /** `key`: the row's identity in the list while it is edited; never sent. */
  groupRoles: { key: string; group: string; role: MemberRole }[];
  defaultRole: MemberRole | '';
  mandatory: boolean;
}
const EMPTY: Form = {
  slug: '',
  issuer: '',
  clientId: '',
  clientSecret: '',
  scopes: 'openid email profile',
  groupsClaim: 'groups',
  groupRoles: [],
  defaultRole: '',
  mandatory: false,
};

/**
 * Admin: the company's OpenID Connect provider (the client secret is write-only), the group →
 * role mapping, the mandatory switch, and the SCIM tokens, each shown once (docs/sso.md).
 */
export function AdminSso() {
  const { t } = useI18n();
  const announce = useAnnounce();
  const sso = useQuery({ queryKey: keys.sso, queryFn: () => apiGet('Account/GetSsoSettings') });
  const save = useSetSsoSettings();
  const createToken = useCreateScimToken();
  const revokeToken = useRevokeScimToken();
  const [form, setForm] = useState<Form>(EMPTY);
  const [error, setError] = useState<string | null>(null);
  // The company's custom roles, mapped like the built-in ones (docs/teams.md "Custom roles").
  const custom = useRoles().data?.items.filter((r) => !r.builtIn) ?? [];
  const customOptions = custom.length > 0 && (
    <optgroup label={t('team.customRoles')}>
      {custom.map((r) => (
        <option key={r.roleId} value={r.roleId}>
          {r.name}
        </option>
      ))}
    </optgroup>
  );
  const [busy, setBusy] = useState(false);
  const [tokenName, setTokenName] = useState('');
  const [newToken, setNewToken] = useState<string | null>(null);
  const [tokenError, setTokenError] = useState<string | null>(null);

  const stored = sso.data?.settings;
  useEffect(() => {
    if (stored)
      setForm({
        ...stored,
        groupRoles: stored.groupRoles.map((g) => ({ ...g, key: crypto.randomUUID() })),
        clientSecret: '',
        defaultRole: stored.defaultRole ?? '',
      });
  }, [stored]);

  const set = <K extends keyof Form>(key: K, value: Form[K]) => setForm((f) => ({ ...f, [key]: value }));

  async function submit(event: FormEvent) {
    event.preventDefault();
    setBusy(true);
    setError(null);
    try {
      await save.mutateAsync({
        slug: form.slug,
        issuer: form.issuer,
        clientId: form.clientId,
        ...(form.clientSecret ? { clientSecret: form.clientSecret } : {}),
        scopes: form.scopes,
        groupsClaim: form.groupsClaim,
        groupRoles: form.groupRoles.filter((g) => g.group.trim()).map(({ group, role }) => ({ group, role })),
        defaultRole: form.defaultRole || null,
        mandatory: form.mandatory,
      });
      announce(t('sso.saved'));
    } catch (err) {
      setError(describeError(err, t));
    } finally {
      setBusy(false);
    }
  }

  async function addToken(event: FormEvent) {
    event.preventDefault();
    setTokenError(null);
    try {
      const created = await createToken.mutateAsync({ name: tokenName });
      setNewToken(created.token);
      setTokenName('');
    } catch (err) {
      setTokenError(describeError(err, t));
    }
  }

  const signInLink = stored ? `${window.location.origin}/?sso=${encodeURIComponent(stored.slug)}` : null;
  return (
    <section aria-labelledby="sso-title">
      <h2 id="sso-title">{t('sso.title')}</h2>
      <p className="muted">{t('sso.intro')}</p>
      <QueryState isPending={sso.isPending} error={sso.error}>
        <dl>
          <dt>{t('sso.redirectUri')}</dt>
          <dd>
            <code>{sso.data?.redirectUri}</code>
          </dd>
          <dt>{t('sso.backchannelLogoutUri')}</dt>
          <dd>
            <code>{sso.data?.backchannelLogoutUri}</code>
          </dd>
          <dt>{t('sso.frontchannelLogoutUri')}</dt>
          <dd>
            <code>{sso.data?.frontchannelLogoutUri}</code>
          </dd>
          {signInLink && (
            <>
              <dt>{t('sso.signInLink')}</dt>
              <dd>
                <code>{signInLink}</code>
              </dd>
            </>
          )}
        </dl>
        <form className="stack" onSubmit={submit} aria-label={t('sso.title')}>
          <label className="field">
            <span>{t('sso.slug')}</span>
            <input name="slug" required value={form.slug} onChange={(e) => set('slug', e.target.value)} />
          </label>
          <label className="field">
            <span>{t('sso.issuer')}</span>
            <input
              name="issuer"
              type="url"
              required
              value={form.issuer}
              onChange={(e) => set('issuer', e.target.value)}
            />
          </label>
          <label className="field">
            <span>{t('sso.clientId')}</span>
            <input name="clientId" required value={form.clientId} onChange={(e) => set('clientId', e.target.value)} />
          </label>
          <label className="field">
            <span>{t('sso.clientSecret')}</span>
            <input
              name="clientSecret"
              type="password"
              autoComplete="new-password"
              required={!stored}
              placeholder={stored ? t('sso.clientSecretKept') : ''}
              value={form.clientSecret}
              onChange={(e) => set('clientSecret', e.target.value)}
            />
          </label>
          <label className="field">
            <span>{t('sso.scopes')}</span>
            <input name="scopes" required value={form.scopes} onChange={(e) => set('scopes', e.target.value)} />
          </label>
          <label className="field">
            <span>{t('sso.groupsClaim')}</span>
            <input
              name="groupsClaim"
              required
              value={form.groupsClaim}
              onChange={(e) => set('groupsClaim', e.target.value)}
            />
          </label>
          <fieldset>
            <legend>{t('sso.groupRoles')}</legend>
            {form.groupRoles.map((g, i) => (
              <div className="row" key={g.key}>
                <input
                  aria-label={`${t('sso.group')} ${i + 1}`}
                  value={g.group}
                  onChange={(e) =>
                    set(
                      'groupRoles',
                      form.groupRoles.map((x, j) => (j === i ? { ...x, group: e.target.value } : x)),
                    )
                  }
                />
                <select
                  aria-label={`${t('account.role')} ${i + 1}`}
                  value={g.role}
                  onChange={(e) =>
                    set(
                      'groupRoles',
                      form.groupRoles.map((x, j) => (j === i ? { ...x, role: e.target.value } : x)),
                    )
                  }
                >
                  {ROLES.map((role) => (
                    <option key={role} value={role}>
                      {t(`role.${role}`)}
                    </option>
                  ))}
                  {customOptions}
                </select>
                <button
                  type="button"
                  className="danger-quiet"
                  aria-label={t('sso.removeGroup', { group: g.group })}
                  onClick={() =>
                    set(
                      'groupRoles',
                      form.groupRoles.filter((_, j) => j !== i),
                    )
                  }
                >
                  ×
                </button>
              </div>
            ))}
            <button
              type="button"
              onClick={() =>
                set('groupRoles', [...form.groupRoles, { key: crypto.randomUUID(), group: '', role: 'editor' }])
              }
            >
              {t('sso.addGroup')}
            </button>
          </fieldset>
          <label className="field">
            <span>{t('sso.defaultRole')}</span>
            <select name="defaultRole" value={form.defaultRole} onChange={(e) => set('defaultRole', e.target.value)}>
              <option value="">{t('sso.refuse')}</option>
              {ROLES.map((role) => (
                <option key={role} value={role}>
                  {t(`role.${role}`)}
                </option>
              ))}
              {customOptions}
            </select>
          </label>
          <label className="switch">
            <input
              type="checkbox"
              role="switch"
              name="mandatory"
              checked={form.mandatory}
              aria-checked={form.mandatory}
              onChange={(e) => set('mandatory', e.target.checked)}
            />
            <span>{t('sso.mandatory')}</span>
          </label>
          <p className="muted">{t('sso.mandatoryHint')}</p>
          <ErrorText message={error} />
          <button type="submit" className="primary" disabled={busy}>
            {busy ? t('common.working') : t('common.save')}
          </button>
        </form>

        <h3>{t('sso.scim')}</h3>
        <p className="muted">{t('sso.scimIntro', { url: sso.data?.scimBaseUrl ?? '' })}</p>
        {sso.data?.scimTokens.length ? (
          <ul>
            {sso.data.scimTokens.map((token) => (
              <li key={token.tokenId}>
                {token.name}{' '}
                <span className="muted">
                  {t('sso.lastUsed')}: {token.lastUsedAt ?? '–'}
                </span>{' '}
                <button
                  type="button"
                  className="danger-quiet"
                  aria-label={t('sso.revokeToken', { name: token.name })}
                  onClick={() =>
                    void revokeToken
                      .mutateAsync({ tokenId: token.tokenId })
                      .catch((err) => setTokenError(describeError(err, t)))
                  }
                >
                  {t('common.delete')}
                </button>
              </li>
            ))}
          </ul>
        ) : (
          <p>{t('sso.noTokens')}</p>
        )}
        {newToken && (
          <p className="notice" role="status">
            {t('sso.tokenOnce')} <code data-testid="scim-token">{newToken}</code>
          </p>
        )}
        <form className="row" onSubmit={addToken}>
          <label className="field">
            <span>{t('sso.tokenName')}</span>
            <input name="tokenName" required value={tokenName} onChange={(e) => setTokenName(e.target.value)} />
          </label>
          <button type="submit">{t('sso.createToken')}</button>
        </form>
        <ErrorText message={tokenError} />
      </QueryState>
    </section>
  );
}
