import { Link } from 'react-router';
import { useI18n } from '../i18n/i18n';

export default function NotFound() {
  const { t } = useI18n();
  return (
    <>
      <h1>{t('notFound.title')}</h1>
      <p>{t('notFound.text')}</p>
      <p>
        <Link to="/">{t('nav.dashboard')}</Link>
      </p>
    </>
  );
}
