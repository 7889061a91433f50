import type express from 'express';
import { grantUsage } from '../auth/grant-usage.js';
import { listGrants, revokeGrants } from '../auth/identities.js';
import { scopeWords } from '../auth/scopes.js';
import { createInvitation, listInvitations, revokeInvitation } from '../core/account-invitations.js';
import { listMembers, removeMember, workingKeysMadeBy, type Role } from '../core/account-members.js';
import { AppError } from '../errors.js';
import { idParam, localsOf, requireAccount, type DashboardDeps } from './deps.js';
import { buttonForm, csrfField, formatDay, formatTime, html, mount, sendHtml } from './layout.js';
import { takeFromBucket } from './security.js';
import { endSessionsOf } from './sessions.js';

/** Connected assistants (the approvals of /mcp/v3) and the team (members, invitations). */

/** Where an assistant's description came from: its client ID metadata document (an https URL), or dynamic registration. */
function origin(clientId: string): string {
  try {
    const url = new URL(clientId);
    if (url.protocol === 'https:') return `its metadata document at ${url.host}`;
  } catch {
    // not a URL: a dynamically registered client
  }
  return 'registered dynamically with this server';
}

export function teamPages(router: express.Router, deps: DashboardDeps): void {
  const { context } = deps;
  const db = context.db;

  router.get('/assistants', async (req, res, next) => {
    try {
      const account = requireAccount(req, res);
      if (!account) return;
      const [grants, usage] = await Promise.all([
        listGrants(db.pool, account.accountId),
        grantUsage(db.pool, account.accountId),
      ]);
      const { page } = localsOf(res);
      const disconnected = typeof req.query.disconnected === 'string' ? req.query.disconnected : null;
      sendHtml(res, 200, {
        title: 'Connected assistants',
        section: '/assistants',
        context: page,
        body: html`<h1>Connected assistants</h1>
          <p>
            Applications you approved when they signed in to <code>${context.publicUrl}/mcp/v3</code>. Disconnecting one
            ends its access at once: its next call is refused, and it must ask you again.
          </p>
          ${disconnected ? html`<p class="notice" role="status">The assistant was disconnected.</p>` : ''}
          ${
            grants.length
              ? html`<ul class="assistants">
                  ${grants.map((grant) => {
                    const use = usage.get(grant.grantId);
                    const name = grant.clientName ?? grant.clientId;
                    return html`<li class="card" data-grant-id="${grant.grantId}">
                      <h2>${name}</h2>
                      <dl>
                        <dt>Known from</dt>
                        <dd>${origin(grant.clientId)}</dd>
                        <dt>May</dt>
                        <dd>
                          <ul>
                            ${grant.scopes
                              .filter((scope) => scope !== 'openid')
                              .map((scope) => html`<li>${scopeWords[scope] ?? scope}</li>`)}
                          </ul>
                        </dd>
                        <dt>Approved</dt>
                        <dd>${formatTime(grant.createdAt)}</dd>
                        <dt>First used</dt>
                        <dd>${use ? formatTime(use.firstUsedAt) : 'not yet'}</dd>
                        <dt>Last used</dt>
                        <dd>${use ? formatTime(use.lastUsedAt) : 'not yet'}</dd>
                      </dl>
                      ${
                        account.role === 'owner'
                          ? html`<p>
                              <a
                                class="danger"
                                href="${mount}/assistants/${encodeURIComponent(grant.grantId)}/disconnect"
                                >Disconnect <span class="visually-hidden">${name}</span></a
                              >
                            </p>`
                          : html`<p class="note">An owner of the account can disconnect it.</p>`
                      }
                    </li>`;
                  })}
                </ul>`
              : html`<p>No assistant is connected.</p>`
          }`,
      });
    } catch (error) {
      next(error);
    }
  });

  /** Asks before disconnecting, naming the assistant; the form posts to the disconnect below. */
  router.get('/assistants/:grantId/disconnect', async (req, res, next) => {
    try {
      const account = requireAccount(req, res);
      if (!account) return;
      const grantId = String(req.params.grantId);
      const grants = /^[A-Za-z0-9_-]{1,200}$/.test(grantId) ? await listGrants(db.pool, account.accountId) : [];
      const grant = grants.find((g) => g.grantId === grantId);
      if (!grant) throw new AppError('not_found', 'No such connected assistant.');
      if (account.role !== 'owner')
        throw new AppError('forbidden', 'Only an owner of the account can disconnect an assistant.');
      const name = grant.clientName ?? grant.clientId;
      const { page } = localsOf(res);
      sendHtml(res, 200, {
        title: 'Disconnect an assistant',
        section: '/assistants',
        context: page,
        body: html`<h1>Disconnect ${name}?</h1>
          <p data-testid="confirm-question">
            Disconnecting <strong>${name}</strong> ends its access to ${account.accountName} at once: its next call is
            refused, and it must ask you again to connect.
          </p>
          ${buttonForm(
            `${mount}/assistants/${encodeURIComponent(grant.grantId)}/disconnect`,
            page.csrf,
            `Disconnect ${name}`,
            {
              danger: true,
            },
          )}
          <p><a href="${mount}/assistants">Keep it connected, back to the assistants</a></p>`,
      });
    } catch (error) {
      next(error);
    }
  });

  router.post('/assistants/:grantId/disconnect', async (req, res, next) => {
    try {
      const account = requireAccount(req, res);
      if (!account) return;
      const grantId = String(req.params.grantId);
      const grants = /^[A-Za-z0-9_-]{1,200}$/.test(grantId) ? await listGrants(db.pool, account.accountId) : [];
      if (!grants.some((grant) => grant.grantId === grantId))
        throw new AppError('not_found', 'No such connected assistant.');
      if (account.role !== 'owner')
        throw new AppError('forbidden', 'Only an owner of the account can disconnect an assistant.');
      await revokeGrants(db.pool, { grantId });
      // This instance refuses its tokens at once; others within OAUTH_TOKEN_CACHE_SECONDS.
      context.services.authorizationServer.forgetTokens();
      context.log.info({ accountId: account.accountId }, 'assistant disconnected in the dashboard');
      res.redirect(303, `${mount}/assistants?disconnected=1`);
    } catch (error) {
      next(error);
    }
  });

  router.get('/team', async (req, res, next) => {
    try {
      const account = requireAccount(req, res);
      if (!account) return;
      const [members, invitations] = await Promise.all([
        listMembers(db.pool, account.accountId),
        account.role === 'owner' ? listInvitations(db.pool, account.accountId) : Promise.resolve([]),
      ]);
      const { page } = localsOf(res);
      const owner = account.role === 'owner';
      const notice = req.query.invited
        ? 'Invitation mailed. Its link works once and expires in 7 days.'
        : req.query.removed
          ? `The member was removed and signed out. ${
              req.query.keys === 'kept'
                ? 'The keys they made keep working; revoke them on the Keys page when they should stop.'
                : `The keys they made were revoked (${Number(req.query.revoked) || 0}): they no longer work.`
            }`
          : req.query.withdrawn
            ? 'The invitation was withdrawn.'
            : null;
      sendHtml(res, 200, {
        title: 'Team',
        section: '/team',
        context: page,
        body: html`<h1>Team</h1>
          ${notice ? html`<p class="notice" role="status">${notice}</p>` : ''}
          <p>
            Owners manage members, invitations, every key and connected assistants. Members use keys (and manage their
            own), and see usage.
          </p>
          <div class="table-wrap" role="region" tabindex="0" aria-labelledby="members-table-caption">
            <table id="members-table">
              <caption id="members-table-caption">
                People of ${account.accountName}
              </caption>
              <thead>
                <tr>
                  <th scope="col">Name</th>
                  <th scope="col">Email</th>
                  <th scope="col">Role</th>
                  <th scope="col">Joined</th>
                  <th scope="col">Last sign-in</th>
                  ${owner ? html`<th scope="col"><span class="visually-hidden">Action</span></th>` : ''}
                </tr>
              </thead>
              <tbody>
                ${members.map(
                  (m) =>
                    html`<tr data-member-id="${m.memberId}">
                      <td>${m.name ?? '—'}${m.memberId === account.memberId ? ' (you)' : ''}</td>
                      <td>${m.email ?? '—'}</td>
                      <td>${m.role}</td>
                      <td>${formatDay(m.createdAt)}</td>
                      <td>${formatTime(m.lastSignInAt)}</td>
                      ${
                        owner
                          ? html`<td>
                              ${
                                m.memberId === account.memberId
                                  ? ''
                                  : html`<a class="button danger" href="${mount}/team/members/${m.memberId}/remove"
                                      >Remove <span class="visually-hidden">${m.name ?? m.email ?? ''}</span></a
                                    >`
                              }
                            </td>`
                          : ''
                      }
                    </tr>`,
                )}
              </tbody>
            </table>
          </div>
          ${
            owner
              ? html`<h2>Invite someone</h2>
                  <form method="post" action="${mount}/team/invitations" class="stack">
                    ${csrfField(page.csrf)}
                    <label for="invite-email">Email</label>
                    <input id="invite-email" name="email" type="email" required autocomplete="off" />
                    <label for="invite-role">Role</label>
                    <select id="invite-role" name="role">
                      <option value="member">Member</option>
                      <option value="owner">Owner</option>
                    </select>
                    <button type="submit" class="primary">Send invitation</button>
                  </form>
                  <h2>Pending invitations</h2>
                  ${
                    invitations.length
                      ? html`<ul class="plain">
                          ${invitations.map(
                            (i) =>
                              html`<li>
                                <strong>${i.email}</strong> as ${i.role}, expires ${formatDay(i.expiresAt)}
                                ${buttonForm(
                                  `${mount}/team/invitations/${i.invitationId}/revoke`,
                                  page.csrf,
                                  html`Withdraw <span class="visually-hidden">the invitation of ${i.email}</span>`,
                                )}
                              </li>`,
                          )}
                        </ul>`
                      : html`<p>None.</p>`
                  }`
              : ''
          }
          <h2>Your sessions</h2>
          <p>Signed in since ${formatTime(page.session?.createdAt)}.</p>
          ${buttonForm(`${mount}/sign-out-everywhere`, page.csrf, 'Sign out everywhere')}`,
      });
    } catch (error) {
      next(error);
    }
  });

  router.post('/team/invitations', async (req, res, next) => {
    try {
      const account = requireAccount(req, res);
      if (!account) return;
      if (account.role !== 'owner') throw new AppError('forbidden', 'Only an owner of the account can invite people.');
      const wait = await takeFromBucket(
        db.pool,
        `account:${account.accountId}`,
        'dashboard-invitations',
        context.config.DASHBOARD_INVITATIONS_PER_HOUR,
      );
      if (wait > 0) {
        res.set('Retry-After', String(wait));
        throw new AppError('rate_limited', `Too many invitations from this account; try again in ${wait} s.`);
      }
      const body = req.body as Record<string, unknown>;
      const invitation = await createInvitation(
        db,
        await deps.invitationKey(),
        account.accountId,
        { memberId: account.memberId, role: account.role },
        {
          email: typeof body.email === 'string' ? body.email : '',
          role: (body.role === 'owner' ? 'owner' : 'member') as Role,
        },
      );
      const link = `${context.publicUrl}${mount}/invitations/accept?token=${encodeURIComponent(invitation.token)}`;
      const inviter = page(res);
      await context.services.mailer.send({
        to: invitation.email,
        subject: `You are invited to ${account.accountName} on Prospecting Data Service`,
        text:
          `${inviter} invited you to the account "${account.accountName}" on Prospecting Data Service, as ${body.role === 'owner' ? 'an owner' : 'a member'}.\n\n` +
          `Accept the invitation (the link works once, until ${invitation.expiresAt.slice(0, 10)}):\n${link}\n\n` +
          'You will sign in with single sign-on as this address. If you did not expect this mail, ignore it.\n',
      });
      context.log.info({ accountId: account.accountId, invitationId: invitation.invitationId }, 'invitation sent');
      res.redirect(303, `${mount}/team?invited=1`);
    } catch (error) {
      next(error);
    }
  });

  router.post('/team/invitations/:invitationId/revoke', async (req, res, next) => {
    try {
      const account = requireAccount(req, res);
      if (!account) return;
      const invitationId = idParam(req.params.invitationId);
      if (invitationId === null) throw new AppError('not_found', 'No such invitation.');
      await revokeInvitation(db.pool, account.accountId, invitationId, {
        memberId: account.memberId,
        role: account.role,
      });
      res.redirect(303, `${mount}/team?withdrawn=1`);
    } catch (error) {
      next(error);
    }
  });

  // Removing someone asks first what becomes of the keys they made, and says it.
  router.get('/team/members/:memberId/remove', async (req, res, next) => {
    try {
      const account = requireAccount(req, res);
      if (!account) return;
      if (account.role !== 'owner') throw new AppError('forbidden', 'Only an owner of the account can remove people.');
      const memberId = idParam(req.params.memberId);
      const member =
        memberId === null
          ? undefined
          : (await listMembers(db.pool, account.accountId)).find((m) => m.memberId === memberId);
      if (!member || memberId === null) throw new AppError('not_found', 'No such member.');
      if (memberId === account.memberId)
        throw new AppError('invalid_state', 'You cannot remove yourself here; another owner can.');
      const keys = await workingKeysMadeBy(db.pool, account.accountId, memberId);
      const who = member.name ?? member.email ?? `member ${memberId}`;
      const { page } = localsOf(res);
      sendHtml(res, 200, {
        title: 'Remove a member',
        section: '/team',
        context: page,
        body: html`<h1>Remove ${who}</h1>
          <p>${who} is signed out at once and can no longer reach ${account.accountName}.</p>
          <form method="post" action="${mount}/team/members/${memberId}/remove" class="stack">
            ${csrfField(page.csrf)}
            ${
              keys.length
                ? html`<fieldset>
                    <legend>The ${keys.length} API ${keys.length === 1 ? 'key' : 'keys'} they made</legend>
                    <p id="member-keys">${keys.join(', ')}</p>
                    <label
                      ><input type="radio" name="keys" value="revoke" checked aria-describedby="member-keys" /> Revoke
                      them: they stop working at once (recommended)</label
                    >
                    <label
                      ><input type="radio" name="keys" value="keep" aria-describedby="member-keys" /> Keep them working:
                      they stay the account's, and an owner can revoke them on the Keys page later</label
                    >
                  </fieldset>`
                : html`<p>They made no API key that still works.</p>`
            }
            <button type="submit" class="danger">Remove ${who}</button>
          </form>
          <p><a href="${mount}/team">Cancel</a></p>`,
      });
    } catch (error) {
      next(error);
    }
  });

  router.post('/team/members/:memberId/remove', async (req, res, next) => {
    try {
      const account = requireAccount(req, res);
      if (!account) return;
      const memberId = idParam(req.params.memberId);
      if (memberId === null) throw new AppError('not_found', 'No such member.');
      if (memberId === account.memberId)
        throw new AppError('invalid_state', 'You cannot remove yourself here; another owner can.');
      // Revoking is the default: only an explicit choice keeps the keys of someone who left working.
      const keepKeys = (req.body as Record<string, unknown>).keys === 'keep';
      const removed = await removeMember(
        db,
        account.accountId,
        memberId,
        { memberId: account.memberId, role: account.role },
        { revokeKeys: !keepKeys },
      );
      for (const hash of removed.revokedKeyHashes) context.authenticator.forgetHash(hash);
      if (removed.issuer !== null && removed.subject !== null)
        await endSessionsOf(db.pool, removed.issuer, removed.subject);
      context.log.info(
        { accountId: account.accountId, memberId, keysRevoked: removed.revokedKeyHashes.length },
        'member removed',
      );
      res.redirect(
        303,
        `${mount}/team?removed=1&${keepKeys ? 'keys=kept' : `revoked=${removed.revokedKeyHashes.length}`}`,
      );
    } catch (error) {
      next(error);
    }
  });

  function page(res: express.Response): string {
    const identity = localsOf(res).session?.identity;
    return identity?.name ?? identity?.email ?? 'An owner';
  }
}
