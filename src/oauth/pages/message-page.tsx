import { PATHS } from '../config';
import { Layout } from './layout';

interface MessagePageProps {
  title: string;
  message: string;
  /** Offer to sign out and start again with another account (refusals). */
  switchAccount?: { csrf: string; query: string };
}

/** Errors and refusals: said plainly, never a redirect to an unverified address. */
export function MessagePage(props: MessagePageProps) {
  return (
    <Layout title={`${props.title} - PIM Service`}>
      <h1>{props.title}</h1>
      <p class="error" role="alert">
        {props.message}
      </p>
      {props.switchAccount ? (
        <form method="post" action={PATHS.logout}>
          <input type="hidden" name="csrf" value={props.switchAccount.csrf} />
          <input type="hidden" name="q" value={props.switchAccount.query} />
          <p class="note">An AI agent must be authorized by an editor who belongs to exactly one company.</p>
          <div class="actions">
            <button type="submit">Sign in with another account</button>
          </div>
        </form>
      ) : (
        <p class="note">You can close this window and start again from the application that sent you here.</p>
      )}
    </Layout>
  );
}
