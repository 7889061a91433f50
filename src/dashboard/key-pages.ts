import type express from 'express';
import type { Request, Response } from 'express';
import {
  gatewayKeyLabel,
  listApiKeys,
  maxKeyNameLength,
  maxRotationOverlapHours,
  rotateApiKey,
  updateApiKey,
  type ApiKeyListing,
  type KeyChanges,
} from '../core/api-keys.js';
import { AppError } from '../errors.js';
import { keyLabel, newKeySection } from './account-pages.js';
import { idParam, localsOf, requireAccount, type DashboardDeps } from './deps.js';
import { csrfField, formatCredits, formatTime, html, mount, sendHtml } from './layout.js';

/**
 * One key's page: rename it, change or remove its daily cap, set or clear its expiry, rotate it
 * with an overlap window, and the confirmation before it is revoked. Those who may revoke a key
 * may change it (an owner any key, a member the keys they created); to anyone else it is not found.
 */

type Account = NonNullable<ReturnType<typeof requireAccount>>;

const changedNotices: Record<string, string> = {
  name: 'The key was renamed.',
  cap: 'The daily credit cap was changed: it holds from the next call.',
  expiry: 'The expiry was changed: it holds from the next call.',
};

/** The key as this person may manage it, or not found (another account's key, or one they may not change). */
async function manageableKey(deps: DashboardDeps, account: Account, keyIdText: unknown): Promise<ApiKeyListing> {
  const keyId = idParam(keyIdText);
  const [key] =
    keyId === null
      ? []
      : await listApiKeys(deps.context.db.pool, account.accountId, { excludeNames: [gatewayKeyLabel], keyId });
  if (!key || (account.role !== 'owner' && key.createdBy?.memberId !== account.memberId))
    throw new AppError('not_found', 'No such API key.');
  return key;
}

function field(req: Request, name: string): string {
  const value = (req.body as Record<string, unknown>)[name];
  return typeof value === 'string' ? value.trim() : '';
}

/** A day typed in a date field: the key works through that day (UTC) and is refused from the midnight after it. */
function expiryOf(text: string): Date | null {
  if (!text) return null;
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(text);
  const day = match ? new Date(Date.UTC(Number(match[1]), Number(match[2]) - 1, Number(match[3]))) : null;
  if (!day || Number.isNaN(day.getTime()) || day.toISOString().slice(0, 10) !== text)
    throw new AppError('invalid_request', 'The expiry must be a day written as YYYY-MM-DD, or empty for none.', {
      details: { issues: [{ field: 'expiresOn', message: 'a day as YYYY-MM-DD' }] },
    });
  return new Date(day.getTime() + 24 * 3600 * 1000);
}

function statusOf(key: ApiKeyListing): string {
  if (key.revokedAt) return `revoked ${formatTime(key.revokedAt)}`;
  if (key.expired) return `expired ${formatTime(key.expiresAt)}`;
  if (key.expiresAt) return `active, works until ${formatTime(key.expiresAt)}`;
  return 'active, does not expire';
}

export function keyPages(router: express.Router, deps: DashboardDeps): void {
  const { context } = deps;
  const db = context.db;

  const renderKey = (
    res: Response,
    key: ApiKeyListing,
    rotated: { apiKey: string; oldKeyWorksUntil: string; oldLabel: string } | null,
    notice: string | null,
  ) => {
    const { page } = localsOf(res);
    const working = !key.revokedAt && !key.expired;
    const action = (name: string) => `${mount}/keys/${key.keyId}/${name}`;
    sendHtml(res, rotated ? 201 : 200, {
      title: `API key ${key.name ?? key.prefix}`,
      section: '/keys',
      context: page,
      body: html`<p><a href="${mount}/keys">All API keys</a></p>
        <h1>API key ${keyLabel(key)}</h1>
        ${
          rotated
            ? html`${newKeySection(rotated.apiKey, key.name)}
                <p class="notice" role="status">
                  The key was rotated. The old key ${rotated.oldLabel} works until
                  <span data-testid="old-key-until">${formatTime(rotated.oldKeyWorksUntil)}</span>, then it is refused.
                </p>`
            : ''
        }
        ${notice ? html`<p class="notice" role="status">${notice}</p>` : ''}
        <dl>
          <dt>Status</dt>
          <dd data-testid="key-status">${statusOf(key)}</dd>
          <dt>Created</dt>
          <dd>${formatTime(key.createdAt)}</dd>
          <dt>Last used</dt>
          <dd>${key.lastUsedAt ? formatTime(key.lastUsedAt) : 'never'}</dd>
          <dt>Read-only</dt>
          <dd>${key.readOnly ? 'yes' : 'no'}</dd>
          <dt>Daily credit cap</dt>
          <dd data-testid="key-cap">
            ${
              key.dailyCreditCap === null
                ? 'none'
                : `${formatCredits(key.dailyCreditCap)} a day (${formatCredits(key.spentToday)} spent today)`
            }
          </dd>
          ${
            key.replacedByKeyId !== null
              ? html`<dt>Replaced by</dt>
                  <dd><a href="${mount}/keys/${key.replacedByKeyId}">key ${key.replacedByKeyId}</a></dd>`
              : ''
          }
        </dl>
        ${
          working
            ? html`<h2>Rename</h2>
                <form method="post" action="${action('name')}" class="stack">
                  ${csrfField(page.csrf)}
                  <label for="key-name">Name</label>
                  <input id="key-name" name="name" required maxlength="${maxKeyNameLength}" value="${key.name ?? ''}" />
                  <button type="submit">Rename</button>
                </form>
                <h2>Daily credit cap</h2>
                <form method="post" action="${action('cap')}" class="stack">
                  ${csrfField(page.csrf)}
                  <label for="key-cap">Most credits a day (UTC); empty for no cap</label>
                  <input
                    id="key-cap"
                    name="dailyCreditCap"
                    type="number"
                    min="1"
                    step="1"
                    inputmode="numeric"
                    value="${key.dailyCreditCap ?? ''}"
                  />
                  <button type="submit">Save the cap</button>
                </form>
                <h2>Expiry</h2>
                <form method="post" action="${action('expiry')}" class="stack">
                  ${csrfField(page.csrf)}
                  <label for="key-expiry">Works through this day (UTC); empty for no expiry</label>
                  <input
                    id="key-expiry"
                    name="expiresOn"
                    type="date"
                    value="${key.expiresAt ? new Date(Date.parse(key.expiresAt) - 1).toISOString().slice(0, 10) : ''}"
                  />
                  <button type="submit">Save the expiry</button>
                </form>
                ${
                  key.replacedByKeyId === null
                    ? html`<h2>Rotate</h2>
                        <form method="post" action="${action('rotate')}" class="stack">
                          ${csrfField(page.csrf)}
                          <p class="note">
                            A new key with the same name and restrictions is shown once. The old key keeps working for
                            the hours you choose, so that you can put the new one in place, then it is refused.
                          </p>
                          <label for="key-overlap"
                            >Hours the old key keeps working (0 to ${maxRotationOverlapHours})</label
                          >
                          <input
                            id="key-overlap"
                            name="overlapHours"
                            type="number"
                            min="0"
                            max="${maxRotationOverlapHours}"
                            step="1"
                            value="24"
                            required
                          />
                          <button type="submit">Rotate</button>
                        </form>`
                    : ''
                }
                <h2>Revoke</h2>
                <p><a class="danger" href="${action('revoke')}">Revoke ${keyLabel(key)}…</a></p>`
            : ''
        }`,
    });
  };

  router.get('/keys/:keyId', async (req, res, next) => {
    try {
      const account = requireAccount(req, res);
      if (!account) return;
      const key = await manageableKey(deps, account, req.params.keyId);
      const changed = typeof req.query.changed === 'string' ? (changedNotices[req.query.changed] ?? null) : null;
      renderKey(res, key, null, changed);
    } catch (error) {
      next(error);
    }
  });

  /** Asks before revoking, naming the key; the form posts to the revoke of account-pages.ts. */
  router.get('/keys/:keyId/revoke', async (req, res, next) => {
    try {
      const account = requireAccount(req, res);
      if (!account) return;
      const key = await manageableKey(deps, account, req.params.keyId);
      const { page } = localsOf(res);
      const label = keyLabel(key);
      sendHtml(res, 200, {
        title: 'Revoke an API key',
        section: '/keys',
        context: page,
        body: html`<h1>Revoke ${label}?</h1>
          ${
            key.revokedAt
              ? html`<p>This key was revoked already.</p>`
              : html`<p data-testid="confirm-question">
                    Revoking the key <strong>${key.name ?? 'unnamed'}</strong> (<code>${key.prefix}…</code>) ends it:
                    from then on it is refused on the REST API and every MCP address. This cannot be undone.
                  </p>
                  <form method="post" action="${mount}/keys/${key.keyId}/revoke" class="inline">
                    ${csrfField(page.csrf)}
                    <button type="submit" class="danger">Revoke ${label}</button>
                  </form>`
          }
          <p><a href="${mount}/keys">Keep it, back to the keys</a></p>`,
      });
    } catch (error) {
      next(error);
    }
  });

  const change =
    (what: keyof typeof changedNotices, changesOf: (req: Request) => KeyChanges) =>
    async (req: Request, res: Response, next: express.NextFunction) => {
      try {
        const account = requireAccount(req, res);
        if (!account) return;
        const key = await manageableKey(deps, account, req.params.keyId);
        const { keyHash } = await updateApiKey(
          db.pool,
          account.accountId,
          key.keyId,
          { memberId: account.memberId, role: account.role },
          changesOf(req),
        );
        // The cached grant carries the name and the cap: this instance uses the new ones at once.
        context.authenticator.forgetHash(keyHash);
        context.log.info({ accountId: account.accountId, keyId: key.keyId, change: what }, 'api key changed');
        res.redirect(303, `${mount}/keys/${key.keyId}?changed=${what}`);
      } catch (error) {
        next(error);
      }
    };

  router.post(
    '/keys/:keyId/name',
    change('name', (req) => ({ name: field(req, 'name') })),
  );
  router.post(
    '/keys/:keyId/cap',
    change('cap', (req) => {
      const text = field(req, 'dailyCreditCap');
      if (text && !/^[0-9]{1,10}$/.test(text))
        throw new AppError(
          'invalid_request',
          'The daily credit cap must be a whole number of credits, or empty for none.',
          {
            details: { issues: [{ field: 'dailyCreditCap', message: 'a whole number of credits' }] },
          },
        );
      return { dailyCreditCap: text ? Number(text) : null };
    }),
  );
  router.post(
    '/keys/:keyId/expiry',
    change('expiry', (req) => ({ expiresAt: expiryOf(field(req, 'expiresOn')) })),
  );

  router.post('/keys/:keyId/rotate', async (req, res, next) => {
    try {
      const account = requireAccount(req, res);
      if (!account) return;
      const key = await manageableKey(deps, account, req.params.keyId);
      const hoursText = field(req, 'overlapHours');
      if (!/^[0-9]{1,3}$/.test(hoursText))
        throw new AppError(
          'invalid_request',
          `The overlap must be a whole number of hours from 0 to ${maxRotationOverlapHours}.`,
          { details: { issues: [{ field: 'overlapHours', message: `0 to ${maxRotationOverlapHours} hours` }] } },
        );
      const rotated = await rotateApiKey(
        db,
        account.accountId,
        key.keyId,
        { memberId: account.memberId, role: account.role },
        Number(hoursText),
      );
      // Cached no longer than its new expiry: this instance refuses it when the overlap ends.
      context.authenticator.forgetHash(rotated.oldKeyHash);
      context.log.info(
        { accountId: account.accountId, keyId: key.keyId, newKeyId: rotated.keyId },
        'api key rotated in the dashboard',
      );
      const [fresh] = await listApiKeys(db.pool, account.accountId, { keyId: rotated.keyId });
      if (!fresh) throw new AppError('not_found', 'No such API key.');
      renderKey(res, fresh, { ...rotated, oldLabel: keyLabel(key) }, null);
    } catch (error) {
      next(error);
    }
  });
}
