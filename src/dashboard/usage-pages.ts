import type express from 'express';
import { operations } from '../../operations/index.js';
import { csvRecord } from '../core/audiences/csv.js';
import { getBalance } from '../core/credits.js';
import { gatewayKeyLabel, listApiKeys } from '../core/api-keys.js';
import { listRequests, requestLogRetentionDays } from '../core/request-log.js';
import { dailySpend, ledgerPage, meteredUnits } from '../core/usage.js';
import { idParam, localsOf, requireAccount, type DashboardDeps } from './deps.js';
import { grantThisMonth, keyLabel } from './account-pages.js';
import { dataTable, formatCredits, formatTime, html, Html, mount, sendHtml } from './layout.js';

/** The account's usage (chart, table, ledger) and its request log. */
export function usagePages(router: express.Router, deps: DashboardDeps): void {
  const { context } = deps;
  const db = context.db;

  router.get('/usage', async (req, res, next) => {
    try {
      const account = requireAccount(req, res);
      if (!account) return;
      const days = req.query.days === '90' ? 90 : 30;
      const filter = {
        apiKeyId: idParam(req.query.key),
        unit: typeof req.query.unit === 'string' ? req.query.unit : null,
      };
      await grantThisMonth(deps, account.accountId, account.plan);
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
        scripts: ['uplot.js', 'table-chart.js'],
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
            data-table="usage-table"
            data-unit="credits"
            role="img"
            aria-label="Chart of the credits spent per day by operation group; the table below holds the same numbers."
          ></div>
          <details class="table-details" ${spend.total ? '' : new Html('open')}>
            <summary>The same numbers as a table</summary>
            <div class="table-wrap" role="region" tabindex="0" aria-labelledby="usage-table-caption">
              <table id="usage-table" data-days="${days}">
                <caption id="usage-table-caption">
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
            <label for="ledger-unit">Metered unit</label>
            <select id="ledger-unit" name="unit">
              <option value="">All units</option>
              ${meteredUnits().map((unit) => html`<option value="${unit}" ${filter.unit === unit ? new Html(' selected') : ''}>${unit}</option>`)}
            </select>
            <button type="submit">Filter</button>
            <a class="button" href="${mount}/usage/ledger.csv?${filterQuery.toString()}" download>Download CSV</a>
          </form>
          ${dataTable({
            id: 'ledger-table',
            caption: `Credit movements, newest first${filter.apiKeyId !== null || filter.unit ? ' (filtered)' : ''}`,
            columns: ['Time', 'Credits', 'Balance after', 'Operation', 'Key', 'Request id', 'What'],
            rows: ledger.entries.map(
              (e) =>
                html`<tr>
                  <td>${formatTime(e.at)}</td>
                  <td class="num">${e.amount > 0 ? `+${formatCredits(e.amount)}` : formatCredits(e.amount)}</td>
                  <td class="num">${formatCredits(e.balanceAfter)}</td>
                  <td>
                    ${e.operationId ?? '—'}
                    ${e.operationId !== e.unit ? html`<span class="code-word">${e.unit}</span>` : ''}
                  </td>
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
            ),
            empty: `No credit movements${filter.apiKeyId !== null || filter.unit ? ' match' : ' yet'}.`,
          })}
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
        csvRecord([
          'time',
          'credits',
          'balance_after',
          'operation_id',
          'unit',
          'group',
          'key_id',
          'key_name',
          'request_id',
          'reason',
        ]),
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
              e.operationId ?? '',
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
          ${dataTable({
            id: 'requests-table',
            caption: `Requests, newest first${filtered ? ' (filtered)' : ''}`,
            columns: ['Time', 'Operation', 'Status', 'Credits', 'Key or assistant', 'Surface', 'Request id'],
            rows: log.rows.map(
              (r) =>
                html`<tr data-request-id="${r.requestId}">
                  <td>${formatTime(r.at)}</td>
                  <td>${r.operationId}</td>
                  <td>${r.status}${r.errorCode ? html` <span class="code-word">${r.errorCode}</span>` : ''}</td>
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
            ),
            empty: `No requests${filtered ? ' match' : ' yet'}.`,
          })}
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
