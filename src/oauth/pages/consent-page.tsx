import { PATHS, type Scope } from '../config';
import { Layout } from './layout';

const SCOPE_TEXT: Record<Scope, string> = {
  mcp: 'Use the PIM tools through the MCP server: read catalogs, products and classifications, start exports.',
  api: 'Call the agent REST API (/api/ai): read statistics and classifications.',
  offline_access: 'Stay connected: keep working without asking you again, for up to 30 days (a refresh token).',
};

interface ConsentPageProps {
  clientName: string;
  redirectHost: string;
  redirectIsLoopback: boolean;
  scopes: Scope[];
  /** The library's consent handle, bound to this browser by a cookie. */
  handle: string;
  user: { userId: string; email: string; companyName: string; aiMayEditClassifications: boolean };
  csrf: string;
  query: string;
}

/**
 * Step 2: what the client asks for, on whose behalf and where the tokens go. Everything the
 * client chose (name, redirect address) is rendered as text, which hono/jsx escapes.
 */
export function ConsentPage(props: ConsentPageProps) {
  return (
    <Layout title={`Authorize ${props.clientName} - PIM Service`}>
      <h1>Allow {props.clientName} to act for you?</h1>
      <p>
        Signed in as <strong>{props.user.email}</strong> ({props.user.companyName}).
      </p>
      <p class="note">This application registered itself; its name is not verified.</p>
      <p>
        Access will be sent to <strong>{props.redirectHost}</strong>.
      </p>
      {props.redirectIsLoopback ? (
        <p class="warning">
          This sends access to a program on your own computer. Continue only if you just started signing in from it.
        </p>
      ) : null}
      <form method="post" action={PATHS.authorize}>
        <input type="hidden" name="handle" value={props.handle} />
        <input type="hidden" name="userId" value={props.user.userId} />
        <fieldset>
          <legend>It asks to</legend>
          {props.scopes.map((scope) => (
            <label key={scope} class="scope" for={`scope-${scope}`}>
              <input type="checkbox" id={`scope-${scope}`} name="scope" value={scope} checked />
              <span>
                <code>{scope}</code> {SCOPE_TEXT[scope]}
              </span>
            </label>
          ))}
        </fieldset>
        <p class="note">
          {props.user.aiMayEditClassifications
            ? 'Your account allows AI agents to edit classifications, so it can also change them.'
            : 'Your account does not allow AI agents to edit classifications; it can only read.'}
        </p>
        <div class="actions">
          <button type="submit" name="decision" value="approve" class="primary">
            Allow
          </button>
          <button type="submit" name="decision" value="deny">
            Deny
          </button>
        </div>
      </form>
      <form method="post" action={PATHS.logout}>
        <input type="hidden" name="csrf" value={props.csrf} />
        <input type="hidden" name="q" value={props.query} />
        <p class="note">
          Not you?{' '}
          <button type="submit" class="link">
            Sign in with another account
          </button>
        </p>
      </form>
    </Layout>
  );
}
