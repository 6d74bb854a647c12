import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { api, login } from './export-harness';
import { expectAccessible, expectAnnounced, launchChromium, newContext, signIn } from './web-browser';

/**
 * Inviting and joining (issue 33 item 4, docs/teams.md), in the browser: the demo admin invites
 * a new address as a viewer in Administration and is shown the link once; a fresh browser opens
 * it, chooses a name and password and lands in the company, signed in as a viewer; the admin's
 * audit then lists the invitation and the joining. The new member is deactivated in afterAll
 * (the e2e files share one server and seed).
 */
const base = () => inject('baseUrl');
const EMAIL = `e2e-invite-${Date.now().toString(36)}@demo.test`;

let browser: Browser;
let admin: string;
let joinedUserId: string | undefined;

beforeAll(async () => {
  browser = await launchChromium();
  admin = await login('admin@demo.test');
});
afterAll(async () => {
  await browser?.close();
  if (joinedUserId) await api(admin, 'Account/DeactivateMember', { userId: joinedUserId });
});

describe('an invitation (issue 33 item 4)', () => {
  it('the admin invites, the invitee sets a password and joins with the role; the audit shows both', async () => {
    const adminPage = await (await newContext(browser)).newPage();
    await signIn(adminPage, base(), 'admin@demo.test');
    await adminPage.goto(`${base()}/admin`);
    const form = adminPage.getByRole('region', { name: 'Invite someone' });
    await form.getByLabel('Email address').fill(EMAIL);
    await form.getByRole('combobox', { name: /^Role/ }).selectOption('viewer');
    await form.getByRole('button', { name: 'Create invitation' }).click();
    await expectAnnounced(adminPage, `Invitation for ${EMAIL} created.`);
    const link = await adminPage.getByLabel(`Invitation link for ${EMAIL}`).inputValue();
    expect(link).toMatch(new RegExp(`^${base()}/invitation#[\\w-]{40,}$`));
    await expectAccessible(adminPage, 'Administration with a new invitation');

    const invitee = await (await newContext(browser)).newPage();
    await invitee.goto(link);
    await invitee.getByRole('heading', { name: /^Join / }).waitFor();
    await invitee.getByLabel('Your name').fill('Ines Neu');
    await invitee.getByLabel('Choose a password').fill('a-new-password-1234');
    await expectAccessible(invitee, 'invitation page');
    await invitee.getByRole('button', { name: 'Join' }).click();
    await invitee.getByRole('navigation', { name: 'Main navigation' }).waitFor();
    const me = await invitee.request.get(`${base()}/api/Account/Me`);
    const account = await me.json();
    expect(account).toMatchObject({ role: 'viewer', user: { email: EMAIL, name: 'Ines Neu' } });
    joinedUserId = account.user.userId;

    // The link was single-use.
    const again = await (await newContext(browser)).newPage();
    await again.goto(link);
    await again.getByText('This invitation link does not work').waitFor();

    await adminPage.reload();
    const audit = adminPage.getByRole('table', { name: 'Changes of roles and access' });
    await audit.getByRole('row', { name: new RegExp(`${EMAIL} Joined`) }).waitFor();
    await audit.getByRole('row', { name: new RegExp(`${EMAIL} Invited`) }).waitFor();
    const invitations = adminPage.getByRole('region', { name: 'Invitations' });
    await invitations.getByRole('row', { name: new RegExp(`${EMAIL}.*Accepted`) }).waitFor();
  });
});
