import { describe, expect, it } from 'vitest';
import { migratedUpTo } from './helpers/migrations';

/**
 * Migration 0056 (the service operator, users.is_operator) on a database holding users: every
 * existing user, company admins included, is not an operator afterwards; the flag is granted out
 * of band only (docs/deploy.md "The service operator").
 */
describe('migration 0056: users.is_operator', () => {
  it('makes no existing user an operator, admins included, and takes the out-of-band grant', async () => {
    const { db, apply } = await migratedUpTo('0056_');
    const run = (sql: string, ...args: unknown[]) => db.prepare(sql).bind(...args);
    const user = (id: string, email: string) =>
      run(
        `INSERT INTO users (id, email, name, password_hash, password_salt, security_stamp) VALUES (?, ?, 'U', 'h', 's', 'st')`,
        id,
        email,
      );
    await db.batch([
      run(`INSERT INTO companies (id, name) VALUES ('c56', 'Migrated GmbH')`),
      run(`INSERT INTO departments (id, company_id, name) VALUES ('d56', 'c56', 'D')`),
      user('u56-admin', 'admin-56@test.example'),
      user('u56-editor', 'editor-56@test.example'),
      run(
        `INSERT INTO memberships (user_id, company_id, role, default_department_id) VALUES ('u56-admin', 'c56', 'admin', 'd56')`,
      ),
      run(
        `INSERT INTO memberships (user_id, company_id, role, default_department_id) VALUES ('u56-editor', 'c56', 'editor', 'd56')`,
      ),
    ]);
    await apply();
    const flags = async () =>
      (await db.prepare(`SELECT email, is_operator FROM users WHERE id LIKE 'u56-%' ORDER BY email`).all()).results;
    expect(await flags()).toEqual([
      { email: 'admin-56@test.example', is_operator: 0 },
      { email: 'editor-56@test.example', is_operator: 0 },
    ]);
    // The grant docs/deploy.md gives, as wrangler d1 execute runs it.
    await db.prepare(`UPDATE users SET is_operator = 1 WHERE email = 'editor-56@test.example'`).run();
    expect(await flags()).toEqual([
      { email: 'admin-56@test.example', is_operator: 0 },
      { email: 'editor-56@test.example', is_operator: 1 },
    ]);
  });
});
