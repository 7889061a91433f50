import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { accountOwnerEmails } from '../../src/core/account-members.js';
import type { TestApp } from '../helpers/app.js';
import {
  createKey,
  csrfOf,
  invitationLinkIn,
  lastMailTo,
  newEmail,
  post,
  signIn,
  signUp,
  startDashboardApp,
  textOf,
} from './helpers.js';

/**
 * Teams: an owner invites by email (a signed, expiring, single-use link in a mail), the invited
 * person accepts only as that address, members cannot manage others, an owner removes a member
 * (who is signed out and can no longer reach the account, in the dashboard or through /mcp/v3),
 * and the owners' addresses are there for whoever must tell them something.
 */
describe('dashboard teams', () => {
  let app: TestApp;
  beforeAll(async () => {
    app = await startDashboardApp({ catalog: 'empty' });
  });
  afterAll(async () => {
    await app?.stop();
  });

  const invite = async (owner: Awaited<ReturnType<typeof signUp>>, email: string, role = 'member') => {
    const team = await owner.browser.open(`${app.url}/dashboard/team`);
    const sent = await post(owner.browser, `${app.url}/dashboard/team/invitations`, {
      csrf: csrfOf(team),
      email,
      role,
    });
    expect(sent.url.search).toBe('?invited=1');
    return invitationLinkIn(await lastMailTo(app, email));
  };

  it('invites by mail; the invited person joins once, as that address only', async () => {
    const owner = await signUp(app, newEmail('team-owner'), 'Team Co');
    const invitee = newEmail('invitee');
    const link = await invite(owner, invitee);
    // A stranger who gets hold of the link cannot use it.
    const stranger = await signUp(app, newEmail('stranger'));
    const strangerPage = await stranger.browser.open(link);
    expect(strangerPage.status).toBe(200);
    const refused = await post(stranger.browser, `${app.url}/dashboard/invitations/accept`, {
      csrf: csrfOf(strangerPage),
      token: new URL(link).searchParams.get('token') as string,
      acceptTerms: 'yes',
    });
    expect(refused.status).toBe(403);
    expect(textOf(refused)).toContain(`This invitation is for ${invitee}`);
    // The invited person signs in (as a new person) and joins.
    const person = await signIn(app, invitee);
    const page = await person.browser.open(link);
    expect(textOf(page)).toContain('Join Team Co');
    const joined = await person.browser.submit(page, null, undefined, { acceptTerms: 'yes' }, '/invitations/accept');
    expect(joined.url.pathname).toBe('/dashboard');
    expect(textOf(joined)).toContain('You joined Team Co');
    expect(textOf(joined)).toContain('(member)');
    // Single use.
    const again = await person.browser.open(link);
    expect(again.status).toBe(410);
    expect(textOf(again)).toContain('already accepted');
    // A changed token is refused.
    const tampered = await person.browser.open(link.replace(/.$/, (c) => (c === 'A' ? 'B' : 'A')));
    expect(tampered.status).toBe(404);
    const members = await owner.browser.open(`${app.url}/dashboard/team`);
    expect(textOf(members)).toContain(invitee);
  });

  it('lets a member use keys and see usage, but not invite, remove, or revoke keys of others', async () => {
    const owner = await signUp(app, newEmail('owner-2'), 'Roles Co');
    const memberEmail = newEmail('member-2');
    const link = await invite(owner, memberEmail);
    const member = await signIn(app, memberEmail);
    const acceptPage = await member.browser.open(link);
    await member.browser.submit(acceptPage, null, undefined, { acceptTerms: 'yes' }, '/invitations/accept');
    const { apiKey: ownersKey } = await createKey(app, owner.browser, { name: 'owner key' });
    const { apiKey: membersKey } = await createKey(app, member.browser, { name: 'member key' });
    expect((await app.request('GET', `/v1/credits?apiKey=${membersKey}`)).status).toBe(200);
    const keys = await member.browser.open(`${app.url}/dashboard/keys`);
    const ownersKeyId = Number(
      (await app.db.pool.query(`SELECT id FROM api_keys WHERE key_prefix = $1`, [ownersKey.slice(0, 10)])).rows[0].id,
    );
    expect(keys.text).not.toContain(`/dashboard/keys/${ownersKeyId}/revoke`);
    const revoke = await post(member.browser, `${app.url}/dashboard/keys/${ownersKeyId}/revoke`, {
      csrf: csrfOf(keys),
    });
    expect(revoke.status).toBe(404);
    expect((await app.request('GET', `/v1/credits?apiKey=${ownersKey}`)).status).toBe(200);
    const team = await member.browser.open(`${app.url}/dashboard/team`);
    expect(team.text).not.toContain('/dashboard/team/invitations"');
    const invited = await post(member.browser, `${app.url}/dashboard/team/invitations`, {
      csrf: csrfOf(team),
      email: newEmail('nope'),
      role: 'owner',
    });
    expect(invited.status).toBe(403);
    const usage = await member.browser.open(`${app.url}/dashboard/usage`);
    expect(usage.status).toBe(200);
    // Their own key a member may revoke.
    const membersKeyId = Number(
      (await app.db.pool.query(`SELECT id FROM api_keys WHERE key_prefix = $1`, [membersKey.slice(0, 10)])).rows[0].id,
    );
    expect(
      (await post(member.browser, `${app.url}/dashboard/keys/${membersKeyId}/revoke`, { csrf: csrfOf(keys) })).url
        .search,
    ).toBe(`?revoked=${membersKeyId}`);
  });

  it('removes a member: signed out, and no longer let in', async () => {
    const owner = await signUp(app, newEmail('owner-3'), 'Removal Co');
    const memberEmail = newEmail('member-3');
    const link = await invite(owner, memberEmail, 'owner');
    const member = await signIn(app, memberEmail);
    await member.browser.submit(
      await member.browser.open(link),
      null,
      undefined,
      { acceptTerms: 'yes' },
      '/invitations/accept',
    );
    const accountId = Number(
      (await app.db.pool.query(`SELECT id FROM accounts WHERE email = $1`, [owner.email])).rows[0].id,
    );
    expect((await accountOwnerEmails(app.db.pool, accountId)).sort()).toEqual([memberEmail, owner.email].sort());
    const memberId = Number(
      (await app.db.pool.query(`SELECT id FROM account_members WHERE email = $1`, [memberEmail])).rows[0].id,
    );
    const team = await owner.browser.open(`${app.url}/dashboard/team`);
    const removed = await post(owner.browser, `${app.url}/dashboard/team/members/${memberId}/remove`, {
      csrf: csrfOf(team),
    });
    expect(removed.url.searchParams.get('removed')).toBe('1');
    expect((await member.browser.open(`${app.url}/dashboard/keys`)).url.pathname).toBe('/dashboard/sign-in');
    const back = await signIn(app, memberEmail);
    expect(back.landed.url.pathname).toBe('/dashboard/welcome');
    const link2 = await app.db.pool.query(`SELECT 1 FROM oauth_identities WHERE subject = $1`, [
      `email:${memberEmail}`,
    ]);
    expect(link2.rowCount).toBe(0);
    expect(await accountOwnerEmails(app.db.pool, accountId)).toEqual([owner.email]);
    // The last owner stays.
    const ownerId = Number(
      (await app.db.pool.query(`SELECT id FROM account_members WHERE email = $1`, [owner.email])).rows[0].id,
    );
    const { removeMember } = await import('../../src/core/account-members.js');
    await expect(removeMember(app.db, accountId, ownerId, { memberId: 0, role: 'owner' })).rejects.toMatchObject({
      code: 'invalid_state',
    });
  });

  it('refuses an invitation past its expiry, and a bad address', async () => {
    const owner = await signUp(app, newEmail('owner-4'));
    const invitee = newEmail('late');
    const link = await invite(owner, invitee);
    await app.db.pool.query(
      `UPDATE account_invitations SET expires_at = now() - interval '1 second' WHERE email = $1`,
      [invitee],
    );
    const person = await signIn(app, invitee);
    const page = await person.browser.open(link);
    // The signature covers the expiry it was issued with: moving it makes the link invalid, as tampering would.
    expect([404, 410]).toContain(page.status);
    const team = await owner.browser.open(`${app.url}/dashboard/team`);
    const bad = await post(owner.browser, `${app.url}/dashboard/team/invitations`, {
      csrf: csrfOf(team),
      email: 'not an address',
      role: 'member',
    });
    expect(bad.status).toBe(400);
    expect(textOf(bad)).toContain('email');
  });
  it('refuses an invitation to an address the mailer would rewrite, naming the field, and mails nobody', async () => {
    const owner = await signUp(app, newEmail('owner-5'));
    const team = await owner.browser.open(`${app.url}/dashboard/team`);
    for (const email of ['<svg/onload=alert(554)>@inv.test', 'kim@inv.test, eve@evil.test', 'k(im)@inv.test']) {
      const refused = await post(owner.browser, `${app.url}/dashboard/team/invitations`, {
        csrf: csrfOf(team),
        email,
        role: 'member',
      });
      expect(refused.status, email).toBe(400);
      expect(textOf(refused), email).toMatch(/Invalid invitation: email: /);
      // What the loose shape lets through is judged as the mailer reads it, and the page says so.
      if (email.startsWith('<svg'))
        expect(textOf(refused)).toContain('the mailer would send this to "@inv.test" <svg/onload=alert>');
    }
    const stored = await app.db.pool.query(`SELECT email FROM account_invitations WHERE email LIKE '%inv.test%'`);
    expect(stored.rows).toEqual([]);
    await expect(lastMailTo(app, 'svg/onload=alert')).rejects.toThrow(/no mail/);
  });

  it("asks the owner what becomes of a removed member's keys: revoked by default, kept only when chosen", async () => {
    const owner = await signUp(app, newEmail('owner-6'), 'Keys Co');
    const joinAs = async (email: string) => {
      const link = await invite(owner, email);
      const member = await signIn(app, email);
      await member.browser.submit(
        await member.browser.open(link),
        null,
        undefined,
        { acceptTerms: 'yes' },
        '/invitations/accept',
      );
      const { apiKey } = await createKey(app, member.browser, { name: `key of ${email.slice(0, 12)}` });
      const memberId = Number(
        (await app.db.pool.query(`SELECT id FROM account_members WHERE email = $1`, [email])).rows[0].id,
      );
      return { apiKey, memberId };
    };
    const works = async (apiKey: string) =>
      (await fetch(`${app.url}/v1/credits`, { headers: { 'x-api-key': apiKey } })).status;
    const leaving = await joinAs(newEmail('leaving'));
    const trusted = await joinAs(newEmail('trusted'));
    expect(await works(leaving.apiKey)).toBe(200);

    // The question, with what each answer does; revoking is chosen unless the owner changes it.
    const question = await owner.browser.open(`${app.url}/dashboard/team/members/${leaving.memberId}/remove`);
    expect(question.status).toBe(200);
    expect(textOf(question)).toContain('The 1 API key they made');
    expect(textOf(question)).toContain('Revoke them: they stop working at once');
    expect(textOf(question)).toContain('Keep them working');
    expect(question.text).toMatch(/<input type="radio" name="keys" value="revoke" checked/);
    const team = await owner.browser.open(`${app.url}/dashboard/team`);
    expect(team.text).toContain(`href="/dashboard/team/members/${leaving.memberId}/remove"`);

    // The form as sent with its default choice, and a form without the field at all: both revoke.
    const removed = await post(owner.browser, `${app.url}/dashboard/team/members/${leaving.memberId}/remove`, {
      csrf: csrfOf(question),
    });
    expect(removed.url.searchParams.get('removed')).toBe('1');
    expect(textOf(removed)).toContain('The keys they made were revoked (1): they no longer work.');
    expect(await works(leaving.apiKey)).toBe(401);

    const kept = await post(owner.browser, `${app.url}/dashboard/team/members/${trusted.memberId}/remove`, {
      csrf: csrfOf(team),
      keys: 'keep',
    });
    expect(textOf(kept)).toContain('The keys they made keep working');
    expect(await works(trusted.apiKey)).toBe(200);
  });
});
