import { useI18n } from '../i18n/i18n';
import { LanguageSwitch } from '../components/LanguageSwitch';
import { SignInForm } from './SignInForm';
import { SsoSignIn } from './SsoSignIn';

export function SignInPage({ onSignedIn }: { onSignedIn: () => void }) {
  const { t } = useI18n();
  return (
    <main className="sign-in">
      <div className="sign-in-card">
        <div className="sign-in-top">
          <span className="brand">{t('app.name')}</span>
          <LanguageSwitch />
        </div>
        <h1>{t('signIn.title')}</h1>
        <p className="muted">{t('signIn.intro')}</p>
        <SignInForm onSignedIn={onSignedIn} />
        <SsoSignIn />
      </div>
    </main>
  );
}
