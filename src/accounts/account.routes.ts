import { Hono } from 'hono';
import type { AppEnv } from '../env';
import { unauthorized } from '../http/app-error';
import { validate } from '../http/validate';
import { describeRoute } from '../openapi/route-meta';
import { changePassword, describeAccount, login, logout, switchDepartment } from './accounts';
import { AccountDto, ChangePasswordDto, LoginDto, LoginResultDto, OkDto, SwitchDepartmentDto } from './account.schemas';
import { checkOrigin, clearSessionCookie, requireSession, sessionToken, setSessionCookie } from './session-auth';

/** `/api/Account/*`: web sessions. */
export const accountRoutes = new Hono<AppEnv>()
  .use(checkOrigin)
  .post(
    '/Login',
    describeRoute({ tag: 'Account', summary: 'Log in and receive the Service.Cookie session cookie', response: LoginResultDto, security: 'none' }),
    validate('json', LoginDto),
    async (c) => {
      const result = await login(c.var.db, c.req.valid('json'));
      setSessionCookie(c, result.token, result.expiresAt);
      return c.json({ userId: result.userId, expiresAt: result.expiresAt });
    },
  )
  .post('/Logout', describeRoute({ tag: 'Account', summary: 'End the web session', response: OkDto, security: 'cookie' }), async (c) => {
    const token = sessionToken(c);
    if (token) await logout(c.var.db, token);
    clearSessionCookie(c);
    return c.json({ ok: true as const });
  })
  .get('/Me', describeRoute({ tag: 'Account', summary: 'The logged-in user, company and department', response: AccountDto, security: 'cookie' }), requireSession, async (c) =>
    c.json(await describeAccount(c.var.db, c.var.caller)),
  )
  .post(
    '/SwitchDepartment',
    describeRoute({ tag: 'Account', summary: "Change the session's current department", response: SwitchDepartmentDto, security: 'cookie' }),
    requireSession,
    validate('json', SwitchDepartmentDto),
    async (c) => {
      const token = sessionToken(c);
      if (!token) throw unauthorized();
      return c.json(await switchDepartment(c.var.db, token, c.var.caller.companyId, c.req.valid('json').departmentId));
    },
  )
  .post(
    '/ChangePassword',
    describeRoute({ tag: 'Account', summary: 'Change the password; ends all sessions and revokes AI access tokens', response: OkDto, security: 'cookie' }),
    requireSession,
    validate('json', ChangePasswordDto),
    async (c) => {
      await changePassword(c.var.db, c.var.caller.userId, c.req.valid('json'));
      clearSessionCookie(c);
      return c.json({ ok: true as const });
    },
  );
