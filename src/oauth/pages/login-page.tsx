import { PATHS } from '../config';
import { Layout } from './layout';

interface LoginPageProps {
  clientName: string;
  /** The authorization request's query string, replayed after sign-in. */
  query: string;
  csrf: string;
  email?: string;
  error?: string;
}

/** Step 1 of authorization: the user signs in with the PIM account the agent will act for. */
export function LoginPage(props: LoginPageProps) {
  return (
    <Layout title="Sign in - PIM Service">
      <h1>Sign in to PIM Service</h1>
      <p>
        <strong>{props.clientName}</strong> wants to act for you in PIM Service. Sign in first; you will then see what
        it asks for and can decide.
      </p>
      {props.error ? (
        <p class="error" role="alert" id="login-error">
          {props.error}
        </p>
      ) : null}
      <form method="post" action={PATHS.login}>
        <input type="hidden" name="csrf" value={props.csrf} />
        <input type="hidden" name="q" value={props.query} />
        <label for="email">Email</label>
        <input
          id="email"
          name="email"
          type="email"
          autocomplete="username"
          required
          autofocus
          value={props.email ?? ''}
          aria-describedby={props.error ? 'login-error' : undefined}
        />
        <label for="password">Password</label>
        <input id="password" name="password" type="password" autocomplete="current-password" required />
        <div class="actions">
          <button type="submit" class="primary">
            Sign in
          </button>
        </div>
      </form>
    </Layout>
  );
}
