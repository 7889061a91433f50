import type express from 'express';
import type { Request, Response } from 'express';
import { operations } from '../../operations/index.js';
import { grantMonthlyFreeCredits } from '../core/accounts.js';
import { csvRecord } from '../core/audiences/csv.js';
import { getBalance } from '../core/credits.js';
import {
  createApiKey,
  gatewayKeyLabel,
  listApiKeys,
  revokeApiKeyById,
  type ApiKeyListing,
} from '../core/key-management.js';
import { listRequests, requestLogRetentionDays } from '../core/request-log.js';
import { dailySpend, ledgerPage, meteredUnits, nextMonthlyGrant } from '../core/usage.js';
import { AppError } from '../errors.js';
import { localsOf, requireAccount, type DashboardDeps } from './deps.js';
import { buttonForm, csrfField, formatCredits, formatDay, formatTime, html, Html, mount, sendHtml } from './layout.js';

/** The account's own pages: overview, API keys, usage (chart, table, ledger), the request log. */

/** A numeric id from a path or a query, or null (which pages answer as not found). */
export function idParam(value: unknown): number | null {
  return typeof value === 'string' && /^[0-9]{1,15}$/.test(value) ? Number(value) : null;
}

function keyLabel(
  key: Pick<ApiKeyListing, 'name' | 'prefix'> | { name: string | null; prefix: string | null },
): string {
  // The credential the MCP gateway derived for /mcp/v3 sign-ins (until 095 revoked them) was no person's key: say what it stood for.
  if (key.name === gatewayKeyLabel) return 'a connected assistant (/mcp/v3)';
  return `${key.name ?? 'unnamed'} (${key.prefix ?? '?'}…)`;
}

export function accountPages(router: express.Router, deps: DashboardDeps): void {
  const { context } = deps;
  const db = context.db;
  const monthly = context.config.FREE_PLAN_MONTHLY_CREDITS;

  /** The free plan's credits of this month, granted before the balance is shown (as the API does before it is read). */
  const grantThisMonth = async (accountId: number, plan: string) => {
    if (plan === 'free') await db.transaction((tx) => grantMonthlyFreeCredits(tx, accountId, plan, monthly));
  };

  router.get('/', async (req, res, next) => {
    try {
      const account = requireAccount(req, res);
      if (!account) return;
      await grantThisMonth(account.accountId, account.plan);
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
    const mayRevoke = (key: ApiKeyListing) =>
      !key.revokedAt && (account.role === 'owner' || key.createdBy?.memberId === account.memberId);
    const revoked = idParam(req.query.revoked);
    sendHtml(res, created ? 201 : 200, {
      title: 'API keys',
      section: '/keys',
      context: page,
      body: html`<h1>API keys</h1>
        ${
          created
            ? html`<section class="new-key" aria-labelledby="new-key-title">
                <h2 id="new-key-title">Your new key${created.name ? html` “${created.name}”` : ''}</h2>
                <p>Copy it now: it is shown this once, and stored only as a hash.</p>
                <div class="copy-row">
                  <output id="new-api-key" data-testid="new-api-key">${created.apiKey}</output>
                  <button type="button" class="copy" data-copy="new-api-key" hidden>Copy</button>
                </div>
              </section>`
            : ''
        }
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
        <div class="table-wrap">
          <table>
            <caption>
              Every key of the account;
              ${account.role === 'owner' ? 'as an owner you can revoke any of them' : 'you can revoke the keys you created'}.
            </caption>
            <thead>
              <tr>
                <th scope="col">Name</th>
                <th scope="col">Prefix</th>
                <th scope="col">Created</th>
                <th scope="col">Last used</th>
                <th scope="col">Created by</th>
                <th scope="col">Restrictions</th>
                <th scope="col">Status</th>
              </tr>
            </thead>
            <tbody>
              ${
                keys.length
                  ? keys.map(
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
                                : mayRevoke(key)
                                  ? buttonForm(
                                      `${mount}/keys/${key.keyId}/revoke`,
                                      page.csrf,
                                      html`Revoke <span class="visually-hidden">${keyLabel(key)}</span>`,
                                      { danger: true },
                                    )
                                  : 'active'
                            }
                          </td>
                        </tr>`,
                    )
                  : html`<tr>
                      <td colspan="7">No keys yet.</td>
                    </tr>`
              }
            </tbody>
          </table>
        </div>`,
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

  router.get('/usage', async (req, res, next) => {
    try {
      const account = requireAccount(req, res);
      if (!account) return;
      const days = req.query.days === '90' ? 90 : 30;
      const filter = {
        apiKeyId: idParam(req.query.key),
        unit: typeof req.query.unit === 'string' ? req.query.unit : null,
      };
      await grantThisMonth(account.accountId, account.plan);
      const [spend, ledger, keys, balance] = await Promise.all([
        dailySpend(db.pool, account.accountId, days),
        ledgerPage(db.pool, account.accountId, filter, { before: idParam(req.query.before), limit: 50 }),
        listApiKeys(db.pool, account.accountId, { excludeNames: [gatewayKeyLabel] }),
        getBalance(db.pool, account.accountId),
      ]);
      const { page } = localsOf(res);
      const filterQuery = new URLSearchParams({
        ...(filter.apiKeyId !== null ? { key: String(filter.apiKeyId) } : {}),
        ...(filter.unit ? { unit: filter.unit } : {}),
      });
      const totals = spend.days.map((_, i) => spend.series.reduce((sum, s) => sum + (s.credits[i] ?? 0), 0));
      sendHtml(res, 200, {
        title: 'Usage',
        section: '/usage',
        context: page,
        scripts: ['uplot.js', 'usage-chart.js'],
        body: html`<h1>Usage</h1>
          <p>
            Balance: <strong><span data-testid="credit-balance">${formatCredits(balance)}</span> credits</strong>.
          </p>
          <h2 id="spend-title">Credits spent per day, last ${days} days</h2>
          <nav aria-label="Period" class="tabs">
            <a href="${mount}/usage?days=30" ${days === 30 ? new Html(' aria-current="page"') : ''}>30 days</a>
            <a href="${mount}/usage?days=90" ${days === 90 ? new Html(' aria-current="page"') : ''}>90 days</a>
          </nav>
          <p>${formatCredits(spend.total)} credits spent in these ${days} days.</p>
          <div
            id="usage-chart"
            class="chart"
            role="img"
            aria-label="Chart of the credits spent per day by operation group; the table below holds the same numbers."
          ></div>
          <details class="table-details" ${spend.total ? '' : new Html('open')}>
            <summary>The same numbers as a table</summary>
            <div class="table-wrap">
              <table id="usage-table" data-days="${days}">
                <caption>
                  Credits spent per day (UTC) by operation group
                </caption>
                <thead>
                  <tr>
                    <th scope="col">Day</th>
                    ${spend.series.map((s) => html`<th scope="col" data-group="${s.group}">${s.label}</th>`)}
                    <th scope="col">Total</th>
                  </tr>
                </thead>
                <tbody>
                  ${spend.days.map(
                    (day, i) =>
                      html`<tr>
                        <th scope="row">${day}</th>
                        ${spend.series.map((s) => html`<td>${s.credits[i] ?? 0}</td>`)}
                        <td>${totals[i] ?? 0}</td>
                      </tr>`,
                  )}
                </tbody>
              </table>
            </div>
          </details>
          <h2 id="ledger">Ledger</h2>
          <form method="get" action="${mount}/usage#ledger" class="filters">
            <input type="hidden" name="days" value="${days}" />
            <label for="ledger-key">Key</label>
            <select id="ledger-key" name="key">
              <option value="">All keys</option>
              ${keys.map((key) => html`<option value="${key.keyId}" ${filter.apiKeyId === key.keyId ? new Html(' selected') : ''}>${keyLabel(key)}</option>`)}
            </select>
            <label for="ledger-unit">Operation</label>
            <select id="ledger-unit" name="unit">
              <option value="">All operations</option>
              ${meteredUnits().map((unit) => html`<option value="${unit}" ${filter.unit === unit ? new Html(' selected') : ''}>${unit}</option>`)}
            </select>
            <button type="submit">Filter</button>
            <a class="button" href="${mount}/usage/ledger.csv?${filterQuery.toString()}" download>Download CSV</a>
          </form>
          <div class="table-wrap">
            <table id="ledger-table">
              <caption>
                Credit movements, newest first${filter.apiKeyId !== null || filter.unit ? ' (filtered)' : ''}
              </caption>
              <thead>
                <tr>
                  <th scope="col">Time</th>
                  <th scope="col">Credits</th>
                  <th scope="col">Balance after</th>
                  <th scope="col">Operation</th>
                  <th scope="col">Key</th>
                  <th scope="col">Request id</th>
                  <th scope="col">What</th>
                </tr>
              </thead>
              <tbody>
                ${
                  ledger.entries.length
                    ? ledger.entries.map(
                        (e) =>
                          html`<tr>
                            <td>${formatTime(e.at)}</td>
                            <td class="num">
                              ${e.amount > 0 ? `+${formatCredits(e.amount)}` : formatCredits(e.amount)}
                            </td>
                            <td class="num">${formatCredits(e.balanceAfter)}</td>
                            <td>${e.unit}</td>
                            <td>${e.apiKeyId !== null ? keyLabel({ name: e.keyName, prefix: e.keyPrefix }) : '—'}</td>
                            <td>
                              ${
                                e.requestId
                                  ? html`<a href="${mount}/requests?requestId=${encodeURIComponent(e.requestId)}"
                                      ><code>${e.requestId}</code></a
                                    >`
                                  : '—'
                              }
                            </td>
                            <td>${e.reason}</td>
                          </tr>`,
                      )
                    : html`<tr>
                        <td colspan="7">
                          No credit movements${filter.apiKeyId !== null || filter.unit ? ' match' : ' yet'}.
                        </td>
                      </tr>`
                }
              </tbody>
            </table>
          </div>
          ${
            ledger.nextBefore !== null
              ? html`<p>
                  <a
                    href="${mount}/usage?${new URLSearchParams({ days: String(days), ...Object.fromEntries(filterQuery), before: String(ledger.nextBefore) }).toString()}#ledger"
                    >Older entries</a
                  >
                </p>`
              : ''
          }`,
      });
    } catch (error) {
      next(error);
    }
  });

  router.get('/usage/ledger.csv', async (req, res, next) => {
    try {
      const account = requireAccount(req, res);
      if (!account) return;
      const filter = {
        apiKeyId: idParam(req.query.key),
        unit: typeof req.query.unit === 'string' ? req.query.unit : null,
      };
      res.set({
        'Content-Type': 'text/csv; charset=utf-8',
        'Content-Disposition': `attachment; filename="ledger-${account.accountId}.csv"`,
        'Cache-Control': 'private, no-store',
      });
      res.write(
        csvRecord(['time', 'credits', 'balance_after', 'unit', 'group', 'key_id', 'key_name', 'request_id', 'reason']),
      );
      let before: number | null = null;
      // At most 100,000 entries: the whole ledger of all but the busiest accounts.
      for (let pages = 0; pages < 100; pages += 1) {
        const chunk = await ledgerPage(db.pool, account.accountId, filter, { before, limit: 1000 });
        for (const e of chunk.entries)
          res.write(
            csvRecord([
              e.at,
              String(e.amount),
              String(e.balanceAfter),
              e.unit,
              e.group,
              e.apiKeyId === null ? '' : String(e.apiKeyId),
              e.keyName ?? '',
              e.requestId ?? '',
              e.reason,
            ]),
          );
        if (chunk.nextBefore === null) break;
        before = chunk.nextBefore;
      }
      res.end();
    } catch (error) {
      next(error);
    }
  });

  router.get('/requests', async (req, res, next) => {
    try {
      const account = requireAccount(req, res);
      if (!account) return;
      const text = (value: unknown) => (typeof value === 'string' && value.trim() ? value.trim().slice(0, 100) : null);
      const filter = {
        requestId: text(req.query.requestId),
        operationId: text(req.query.operation),
        apiKeyId: idParam(req.query.key),
        outcome: req.query.outcome === 'ok' || req.query.outcome === 'error' ? req.query.outcome : null,
      } as const;
      const [log, keys] = await Promise.all([
        listRequests(db.pool, account.accountId, filter, { before: idParam(req.query.before), limit: 50 }),
        listApiKeys(db.pool, account.accountId, { excludeNames: [gatewayKeyLabel] }),
      ]);
      const { page } = localsOf(res);
      const filtered = Object.values(filter).some((v) => v !== null);
      const query = new URLSearchParams(
        Object.entries({
          requestId: filter.requestId,
          operation: filter.operationId,
          key: filter.apiKeyId === null ? null : String(filter.apiKeyId),
          outcome: filter.outcome,
        }).filter((entry): entry is [string, string] => entry[1] !== null),
      );
      sendHtml(res, 200, {
        title: 'Requests',
        section: '/requests',
        context: page,
        body: html`<h1>Requests</h1>
          <p>
            What the account's keys and connected assistants ran in the last ${requestLogRetentionDays} days, on the API
            and every MCP surface. Paste a request id from an error message to find its request.
          </p>
          <form method="get" action="${mount}/requests" class="filters">
            <label for="request-id">Request id</label>
            <input id="request-id" name="requestId" value="${filter.requestId ?? ''}" maxlength="100" />
            <label for="request-operation">Operation</label>
            <select id="request-operation" name="operation">
              <option value="">All operations</option>
              ${operations.map((op) => html`<option value="${op.operationId}" ${filter.operationId === op.operationId ? new Html(' selected') : ''}>${op.operationId}</option>`)}
            </select>
            <label for="request-key">Key</label>
            <select id="request-key" name="key">
              <option value="">All keys and assistants</option>
              ${keys.map((key) => html`<option value="${key.keyId}" ${filter.apiKeyId === key.keyId ? new Html(' selected') : ''}>${keyLabel(key)}</option>`)}
            </select>
            <label for="request-outcome">Outcome</label>
            <select id="request-outcome" name="outcome">
              <option value="">Any</option>
              <option value="ok" ${filter.outcome === 'ok' ? new Html(' selected') : ''}>Succeeded</option>
              <option value="error" ${filter.outcome === 'error' ? new Html(' selected') : ''}>Failed</option>
            </select>
            <button type="submit">Filter</button>
          </form>
          <div class="table-wrap">
            <table id="requests-table">
              <caption>
                Requests, newest first${filtered ? ' (filtered)' : ''}
              </caption>
              <thead>
                <tr>
                  <th scope="col">Time</th>
                  <th scope="col">Operation</th>
                  <th scope="col">Status</th>
                  <th scope="col">Credits</th>
                  <th scope="col">Key or assistant</th>
                  <th scope="col">Surface</th>
                  <th scope="col">Request id</th>
                </tr>
              </thead>
              <tbody>
                ${
                  log.rows.length
                    ? log.rows.map(
                        (r) =>
                          html`<tr data-request-id="${r.requestId}">
                            <td>${formatTime(r.at)}</td>
                            <td>${r.operationId}</td>
                            <td>
                              ${r.status}${r.errorCode ? html` <span class="code-word">${r.errorCode}</span>` : ''}
                            </td>
                            <td class="num">${formatCredits(r.credits)}</td>
                            <td>
                              ${
                                r.clientId !== null
                                  ? `assistant ${r.clientName ?? r.clientId}`
                                  : r.apiKeyId !== null
                                    ? keyLabel({ name: r.keyName, prefix: r.keyPrefix })
                                    : '—'
                              }
                            </td>
                            <td>${r.surface}</td>
                            <td><code>${r.requestId}</code></td>
                          </tr>`,
                      )
                    : html`<tr>
                        <td colspan="7">No requests${filtered ? ' match' : ' yet'}.</td>
                      </tr>`
                }
              </tbody>
            </table>
          </div>
          ${
            log.nextBefore !== null
              ? html`<p>
                  <a
                    href="${mount}/requests?${new URLSearchParams({ ...Object.fromEntries(query), before: String(log.nextBefore) }).toString()}"
                    >Older requests</a
                  >
                </p>`
              : ''
          }`,
      });
    } catch (error) {
      next(error);
    }
  });
}
