import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { api, login } from './export-harness';
import { expectAccessible, expectAnnounced, launchChromium, newContext, signIn } from './web-browser';

/**
 * Custom roles and a member's access in Administration (issue 33 items 1 and 2, docs/teams.md):
 * the demo admin creates a custom role with the keyboard, gives it to a member, limits the member
 * to one catalog in the Access dialog, and deletes the role once nobody holds it. The member is
 * made for this file through an invitation and deactivated in afterAll (the e2e files share one
 * server and seed).
 */
const base = () => inject('baseUrl');
const STAMP = Date.now().toString(36);
const EMAIL = `e2e-access-${STAMP}@demo.test`;
const MEMBER = `Axel ${STAMP}`;
const ROLE = `E2E publisher ${STAMP}`;

let browser: Browser;
let admin: string;
let memberId: string;
let roleId: string | undefined;

beforeAll(async () => {
  browser = await launchChromium();
  admin = await login('admin@demo.test');
  const invited = await api(admin, 'Account/InviteMember', { email: EMAIL, role: 'viewer' });
  const token = invited.link.slice(invited.link.indexOf('#') + 1);
  const res = await fetch(`${base()}/api/Account/AcceptInvitation`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ token, password: 'a-new-password-1234', name: MEMBER }),
  });
  expect(res.status).toBe(200);
  memberId = ((await res.json()) as { userId: string }).userId;
});
afterAll(async () => {
  await browser?.close();
  if (memberId) await api(admin, 'Account/DeactivateMember', { userId: memberId });
});

describe('custom roles and access in Administration', () => {
  it('creates a role, gives it to a member, limits them to a catalog, and deletes the role', async () => {
    const page = await (await newContext(browser)).newPage();
    await signIn(page, base(), 'admin@demo.test');
    await page.goto(`${base()}/admin`);

    // A role made with the keyboard: its name typed, a permission ticked with Space.
    const roles = page.getByRole('region', { name: 'Roles' });
    const create = roles.getByRole('form', { name: 'Create role' });
    await create.getByLabel('Role name').fill(ROLE);
    await create.getByRole('checkbox', { name: 'Export and sync' }).focus();
    await page.keyboard.press('Space');
    await create.getByRole('button', { name: 'Create role' }).press('Enter');
    await expectAnnounced(page, `Role ${ROLE} created.`);
    await roles.getByRole('row', { name: new RegExp(`${ROLE} Read everything, Export and sync 0`) }).waitFor();
    roleId = (await api(admin, 'Account/GetRoles')).items.find((r: { name: string }) => r.name === ROLE).roleId;

    await page.getByRole('combobox', { name: `Role of ${MEMBER}` }).selectOption({ label: ROLE });
    await expectAnnounced(page, `${MEMBER} is now ${ROLE}.`);

    await page.getByRole('button', { name: `Access of ${MEMBER}` }).click();
    const dialog = page.getByRole('dialog', { name: `What ${MEMBER} may work on` });
    const catalogs = dialog.getByRole('group', { name: 'Catalogs' });
    const first = catalogs.getByRole('checkbox').first();
    await first.check();
    const catalogName = (await first.locator('xpath=..').textContent())?.trim();
    await expectAccessible(page, 'the Access dialog');
    await dialog.getByRole('button', { name: 'Save' }).click();
    await expectAnnounced(page, `The access of ${MEMBER} is saved.`);
    await page.getByText(`Access: Catalogs: ${catalogName}`).waitFor();

    const member = (await api(admin, 'Account/GetUsers')).items.find((u: { userId: string }) => u.userId === memberId);
    expect(member).toMatchObject({ role: roleId, catalogIds: [expect.any(String)], channelIds: [] });
    const me = await login(EMAIL, 'a-new-password-1234');
    expect(await api(me, 'Account/Me')).toMatchObject({ roleName: ROLE, permissions: ['read', 'publish'] });

    // Held by nobody once the member is a viewer again: then it can go.
    await page.getByRole('combobox', { name: `Role of ${MEMBER}` }).selectOption('viewer');
    await expectAnnounced(page, `${MEMBER} is now Viewer.`);
    await roles.getByRole('button', { name: `Delete ${ROLE}` }).click();
    await page.getByRole('dialog', { name: 'Delete this role?' }).getByRole('button', { name: 'Delete' }).click();
    await expectAnnounced(page, `Role ${ROLE} deleted.`);
    expect((await api(admin, 'Account/GetRoles')).items.some((r: { name: string }) => r.name === ROLE)).toBe(false);
    roleId = undefined;
    await expectAccessible(page, 'Administration with roles');
  });
});
