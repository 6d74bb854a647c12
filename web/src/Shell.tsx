import { useState, type ReactNode } from 'react';
import { NavLink } from 'react-router';
import { describeError } from './api/errors';
import { useSignOut, useSwitchDepartment } from './api/mutations';
import { ErrorText } from './components/ErrorText';
import { LanguageSwitch } from './components/LanguageSwitch';
import { useI18n } from './i18n/i18n';
import type { MessageKey } from './i18n/de';
import { useSession } from './session/session';
import type { Permission } from './api/models';

/**
 * `admin`: shown to company admins only; `operator` too: shown to the service operator as well;
 * `permission`: shown to members whose role permits it (`Account/Me` `permissions`, docs/teams.md).
 */
const NAV: { to: string; key: MessageKey; admin?: boolean; operator?: boolean; permission?: Permission }[] = [
  { to: '/', key: 'nav.dashboard' },
  { to: '/catalogs', key: 'nav.catalogs' },
  { to: '/categories', key: 'nav.categories' },
  { to: '/products', key: 'nav.products' },
  { to: '/imports', key: 'nav.imports' },
  { to: '/exports', key: 'nav.exports' },
  { to: '/sync', key: 'nav.sync' },
  { to: '/review', key: 'nav.review', permission: 'review.decide' },
  { to: '/admin', key: 'nav.admin', admin: true },
  { to: '/releases', key: 'nav.releases', admin: true, operator: true },
];

/** Header (company, department, language, account) and the main navigation around every screen. */
export function Shell({ children }: { children: ReactNode }) {
  const { t } = useI18n();
  const { account, isAdmin, isOperator } = useSession();
  const signOut = useSignOut();
  return (
    <div className="shell">
      <a className="skip-link" href="#main">
        {t('app.skip')}
      </a>
      <header className="topbar">
        <span className="brand">{t('app.name')}</span>
        <span className="company">{account.company.name}</span>
        <div className="topbar-tools">
          <DepartmentSwitch />
          <LanguageSwitch />
          <NavLink to="/account" className="topbar-link">
            {account.user.name || account.user.email}
          </NavLink>
          <button type="button" onClick={() => void signOut()}>
            {t('nav.signOut')}
          </button>
        </div>
      </header>
      <nav className="sidenav" aria-label={t('nav.label')}>
        <ul>
          {NAV.filter((item) =>
            item.permission
              ? account.permissions.includes(item.permission)
              : !item.admin || isAdmin || (item.operator && isOperator),
          ).map((item) => (
            <li key={item.to}>
              <NavLink to={item.to} end={item.to === '/'}>
                {t(item.key)}
              </NavLink>
            </li>
          ))}
        </ul>
      </nav>
      <main id="main" className="content" tabIndex={-1}>
        {children}
      </main>
    </div>
  );
}

function DepartmentSwitch() {
  const { t } = useI18n();
  const { account } = useSession();
  const switchDepartment = useSwitchDepartment();
  const [error, setError] = useState<string | null>(null);
  if (account.departments.length < 2) return null;
  const change = async (departmentId: string) => {
    setError(null);
    try {
      await switchDepartment.mutateAsync({ departmentId });
    } catch (err) {
      setError(describeError(err, t));
    }
  };
  return (
    <label className="inline-field">
      <span>{t('nav.department')}</span>
      <select value={account.departmentId} onChange={(e) => void change(e.target.value)}>
        {account.departments.map((d) => (
          <option key={d.departmentId} value={d.departmentId}>
            {d.name}
          </option>
        ))}
      </select>
      <ErrorText message={error} />
    </label>
  );
}
