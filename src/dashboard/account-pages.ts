import type express from 'express';
import type { Request, Response } from 'express';
import { grantMonthlyFreeCredits } from '../core/accounts.js';
import { getBalance } from '../core/credits.js';
import { createApiKey, gatewayKeyLabel, listApiKeys, revokeApiKeyById, type ApiKeyListing } from '../core/api-keys.js';
import { dailySpend, nextMonthlyGrant } from '../core/usage.js';
import { AppError } from '../errors.js';
import { idParam, localsOf, requireAccount, type DashboardDeps } from './deps.js';
import { csrfField, dataTable, formatCredits, formatDay, formatTime, html, mount, sendHtml } from './layout.js';

/** The account's own pages: overview and API keys (usage and the request log: usage-pages.ts). */

export function keyLabel(
  key: Pick<ApiKeyListing, 'name' | 'prefix'> | { name: string | null; prefix: string | null },
): string {
  // The credential the MCP gateway derived for /mcp/v3 sign-ins (until 095 revoked them) was no person's key: say what it stood for.
  if (key.name === gatewayKeyLabel) return 'a connected assistant (/mcp/v3)';
  return `${key.name ?? 'unnamed'} (${key.prefix ?? '?'}…)`;
}

/** A key just issued (created or rotated), shown this once. */
export function newKeySection(apiKey: string, name: string | null) {
  return html`<section class="new-key" aria-labelledby="new-key-title">
    <h2 id="new-key-title">Your new key${name ? html` “${name}”` : ''}</h2>
    <p>Copy it now: it is shown this once, and stored only as a hash.</p>
    <div class="copy-row">
      <output id="new-api-key" data-testid="new-api-key">${apiKey}</output>
      <button type="button" class="copy" data-copy="new-api-key" hidden>Copy</button>
    </div>
  </section>`;
}

/** The free plan's credits of this month, granted before the balance is shown (as the API does before it is read). */
export async function grantThisMonth(deps: DashboardDeps, accountId: number, plan: string): Promise<void> {
  const { db, config } = deps.context;
  if (plan === 'free')
    await db.transaction((tx) => grantMonthlyFreeCredits(tx, accountId, plan, config.FREE_PLAN_MONTHLY_CREDITS));
}

export function accountPages(router: express.Router, deps: DashboardDeps): void {
  const { context } = deps;
  const db = context.db;
  const monthly = context.config.FREE_PLAN_MONTHLY_CREDITS;

  router.get('/', async (req, res, next) => {
    try {
      const account = requireAccount(req, res);
      if (!account) return;
      await grantThisMonth(deps, account.accountId, account.plan);
      const [balance, keys, spend] = await Promise.all([
        getBalance(db.pool, account.accountId),
        listApiKeys(db.pool, account.accountId, { excludeNames: [gatewayKeyLabel], includeRevoked: false }),
        dailySpend(db.pool, account.accountId, 30),
      ]);
      const grant = nextMonthlyGrant(account.plan, monthly);
      const { page } = localsOf(res);
      sendHtml(res, 200, {
        title: 'Overview',
        section: '',
        context: page,
        body: html`<h1>${account.accountName}</h1>
          ${req.query.welcome ? html`<p class="notice" role="status">Your account is ready. Create an API key to start.</p>` : ''}
          ${req.query.joined ? html`<p class="notice" role="status">You joined ${account.accountName}.</p>` : ''}
          <section class="cards" aria-label="Credits">
            <div class="card">
              <h2>Balance</h2>
              <p class="figure"><span data-testid="credit-balance">${formatCredits(balance)}</span> credits</p>
            </div>
            <div class="card">
              <h2>Plan</h2>
              <p class="figure" data-testid="plan">${account.plan}</p>
              <p class="note">
                ${
                  grant
                    ? html`Next monthly grant:
                        <span data-testid="next-grant">${formatCredits(grant.credits)}</span> credits on
                        ${formatDay(grant.at)}.`
                    : 'No monthly grant on this plan.'
                }
              </p>
            </div>
            <div class="card">
              <h2>Last 30 days</h2>
              <p class="figure">${formatCredits(spend.total)} credits spent</p>
              <p class="note"><a href="${mount}/usage">See where they went</a></p>
            </div>
          </section>
          <h2>Get started</h2>
          <p>
            ${
              keys.length
                ? html`You have ${keys.length} active API ${keys.length === 1 ? 'key' : 'keys'}.`
                : html`You have no API key yet.`
            }
            <a href="${mount}/keys">Manage API keys</a>.
          </p>
          <pre class="code"><code>curl -s ${context.publicUrl}/v1/credits -H "x-api-key: $KEY"</code></pre>
          <p>
            Agents connect to <code>${context.publicUrl}/mcp</code> with an API key, or to
            <code>${context.publicUrl}/mcp/v3</code> by signing in (they then appear under
            <a href="${mount}/assistants">Assistants</a>).
          </p>`,
      });
    } catch (error) {
      next(error);
    }
  });

  const renderKeys = async (
    req: Request,
    res: Response,
    account: NonNullable<ReturnType<typeof requireAccount>>,
    created: { apiKey: string; name: string | null } | null,
  ) => {
    const keys = await listApiKeys(db.pool, account.accountId, { excludeNames: [gatewayKeyLabel] });
    const { page } = localsOf(res);
    const mayManage = (key: ApiKeyListing) =>
      !key.revokedAt && !key.expired && (account.role === 'owner' || key.createdBy?.memberId === account.memberId);
    const revoked = idParam(req.query.revoked);
    sendHtml(res, created ? 201 : 200, {
      title: 'API keys',
      section: '/keys',
      context: page,
      body: html`<h1>API keys</h1>
        ${created ? newKeySection(created.apiKey, created.name) : ''}
        ${revoked !== null ? html`<p class="notice" role="status">Key ${revoked} was revoked: it is refused from now on.</p>` : ''}
        <h2>Create a key</h2>
        <form method="post" action="${mount}/keys" class="stack">
          ${csrfField(page.csrf)}
          <label for="key-name">Name</label>
          <input id="key-name" name="name" required maxlength="100" aria-describedby="key-name-help" />
          <p id="key-name-help" class="note">What it is for, such as "CRM sync" or "Claude on my laptop".</p>
          <div class="check">
            <input id="key-read-only" type="checkbox" name="readOnly" value="yes" />
            <label for="key-read-only">Read-only: only operations that are free and change nothing</label>
          </div>
          <label for="key-cap">Daily credit cap (optional)</label>
          <input
            id="key-cap"
            name="dailyCreditCap"
            type="number"
            min="1"
            step="1"
            inputmode="numeric"
            aria-describedby="key-cap-help"
          />
          <p id="key-cap-help" class="note">
            The most credits the key may spend per day (UTC). A capped key cannot start work charged later (audience
            builds, batch enrichment, saved searches).
          </p>
          <button type="submit" class="primary">Create key</button>
        </form>
        <h2>Keys of ${account.accountName}</h2>
        ${dataTable({
          id: 'keys-table',
          caption: html`Every key of the account;
          ${
            account.role === 'owner'
              ? 'as an owner you can change or revoke any of them'
              : 'you can change or revoke the keys you created'
          }.`,
          columns: ['Name', 'Prefix', 'Created', 'Last used', 'Created by', 'Restrictions', 'Status'],
          rows: keys.map(
            (key) =>
              html`<tr data-key-id="${key.keyId}">
                <td>${key.name ?? 'unnamed'}</td>
                <td><code>${key.prefix}…</code></td>
                <td>${formatTime(key.createdAt)}</td>
                <td>${key.lastUsedAt ? formatTime(key.lastUsedAt) : 'never'}</td>
                <td>${key.createdBy ? (key.createdBy.name ?? key.createdBy.email) : 'an operator'}</td>
                <td>
                  ${
                    [
                      key.readOnly ? 'read-only' : null,
                      key.dailyCreditCap !== null
                        ? `cap ${formatCredits(key.dailyCreditCap)} a day (${formatCredits(key.spentToday)} spent today)`
                        : null,
                    ]
                      .filter(Boolean)
                      .join('; ') || 'none'
                  }
                </td>
                <td>
                  ${
                    key.revokedAt
                      ? html`revoked ${formatDay(key.revokedAt)}`
                      : key.expired
                        ? html`expired ${formatTime(key.expiresAt)}`
                        : html`${key.expiresAt ? html`works until ${formatTime(key.expiresAt)}` : 'active'}
                          ${
                            mayManage(key)
                              ? html`<a href="${mount}/keys/${key.keyId}"
                                    >Change <span class="visually-hidden">${keyLabel(key)}</span></a
                                  >
                                  <a class="danger" href="${mount}/keys/${key.keyId}/revoke"
                                    >Revoke <span class="visually-hidden">${keyLabel(key)}</span></a
                                  >`
                              : ''
                          }`
                  }
                </td>
              </tr>`,
          ),
          empty: 'No keys yet.',
        })}`,
    });
  };

  router.get('/keys', async (req, res, next) => {
    try {
      const account = requireAccount(req, res);
      if (!account) return;
      await renderKeys(req, res, account, null);
    } catch (error) {
      next(error);
    }
  });

  router.post('/keys', async (req, res, next) => {
    try {
      const account = requireAccount(req, res);
      if (!account) return;
      const body = req.body as Record<string, unknown>;
      const name = typeof body.name === 'string' ? body.name.trim() : '';
      if (!name)
        throw new AppError('invalid_request', 'Give the key a name, so that you can tell it apart later.', {
          details: { issues: [{ field: 'name', message: 'required' }] },
        });
      const capText = typeof body.dailyCreditCap === 'string' ? body.dailyCreditCap.trim() : '';
      if (capText && !/^[0-9]{1,10}$/.test(capText))
        throw new AppError(
          'invalid_request',
          'The daily credit cap must be a whole number of credits, or empty for none.',
          {
            details: { issues: [{ field: 'dailyCreditCap', message: 'a whole number of credits' }] },
          },
        );
      const issued = await createApiKey(db, account.accountId, {
        name,
        createdBy: account.memberId,
        readOnly: body.readOnly === 'yes',
        dailyCreditCap: capText ? Number(capText) : null,
      });
      context.log.info({ accountId: account.accountId, keyId: issued.keyId }, 'api key created in the dashboard');
      await renderKeys(req, res, account, { apiKey: issued.apiKey, name });
    } catch (error) {
      next(error);
    }
  });

  router.post('/keys/:keyId/revoke', async (req, res, next) => {
    try {
      const account = requireAccount(req, res);
      if (!account) return;
      const keyId = idParam(req.params.keyId);
      if (keyId === null) throw new AppError('not_found', 'No such API key.');
      const { keyHash } = await revokeApiKeyById(db.pool, account.accountId, keyId, {
        memberId: account.memberId,
        role: account.role,
      });
      context.authenticator.forgetHash(keyHash);
      context.log.info({ accountId: account.accountId, keyId }, 'api key revoked in the dashboard');
      res.redirect(303, `${mount}/keys?revoked=${keyId}`);
    } catch (error) {
      next(error);
    }
  });
}
