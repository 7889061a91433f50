import type express from 'express';
import { createWatchList as createOperation } from '../../operations/index.js';
import { changeKind, watchListItemsPerCall } from '../../operations/schemas/watch-lists.js';
import { changesByWeek, describeChange, listWatchListChanges } from '../core/watch-lists/changes.js';
import { maxWatchListUploadRows, watchListItemsFromCsv } from '../core/watch-lists/upload.js';
import {
  addWatchListItems,
  createWatchList,
  estimateWatchListCost,
  listWatchListItems,
  listWatchLists,
  requireWatchList,
  updateWatchList,
  viewOf,
} from '../core/watch-lists/watch-lists.js';
import { parseWith } from '../validation.js';
import { uploadedText } from './data-pages.js';
import { accountRecordRoute, localsOf, requireAccount, type DashboardDeps } from './deps.js';
import { buttonForm, csrfField, dataTable, formatCredits, formatTime, html, Html, mount, sendHtml } from './layout.js';

/**
 * Watch lists: the account's lists, and one list's items, its changes over time (a chart drawn from a table of the same
 * numbers) and the newest changes; people or companies added from a CSV file; checks paused and resumed. Everything goes
 * through the same core functions as the API's watch-list operations, so a page can never do what the API would refuse.
 */

const weeksShown = 12;
const changeKinds = changeKind.options;
const kindLabel = (kind: string) => kind.replace(/_/g, ' ');

interface UploadReport {
  added: number;
  duplicates: number;
  unresolved: { line: number; value: string; reason: string }[];
  notRead: { line: number; value: string; reason: string }[];
}

function plural(count: number, one: string, many = `${one}s`): string {
  return `${formatCredits(count)} ${count === 1 ? one : many}`;
}

export function watchListPages(router: express.Router, deps: DashboardDeps): void {
  const { context } = deps;
  const db = context.db;
  const cursors = context.services.cursors;
  const clock = context.services.networkClock;

  router.get('/watch-lists', async (req, res, next) => {
    try {
      const account = requireAccount(req, res);
      if (!account) return;
      const lists = await listWatchLists(db.pool, cursors, account.accountId, { pageSize: 100 });
      const { page } = localsOf(res);
      sendHtml(res, 200, {
        title: 'Watch lists',
        section: '/watch-lists',
        context: page,
        body: html`<h1>Watch lists</h1>
          <p>
            People and companies checked on a schedule through the live network source: job changes, new titles, funding
            rounds, headcount and moves, each also sent to the account's webhook endpoints.
          </p>
          ${dataTable({
            id: 'watch-lists-table',
            caption: 'The account’s watch lists, newest first',
            columns: ['Name', 'Kind', 'Checked every', 'Items', 'Changes', 'Last check', 'Checks'],
            rows: lists.data.map(
              (list) =>
                html`<tr>
                  <td><a href="${mount}/watch-lists/${list.watchListId}">${list.name}</a></td>
                  <td>${list.kind}</td>
                  <td>${list.checkEvery}</td>
                  <td class="num">${formatCredits(list.items)}</td>
                  <td class="num">${formatCredits(list.changes)}</td>
                  <td>${formatTime(list.lastCheckAt)}</td>
                  <td>${list.paused ? `paused${list.pausedReason ? `: ${list.pausedReason}` : ''}` : 'running'}</td>
                </tr>`,
            ),
            empty: 'No watch lists yet.',
          })}
          <h2>New watch list</h2>
          <form method="post" action="${mount}/watch-lists" class="stack">
            ${csrfField(page.csrf)}
            <label for="watch-list-name">Name</label>
            <input id="watch-list-name" name="name" required maxlength="200" />
            <label for="watch-list-kind">Kind</label>
            <select id="watch-list-kind" name="kind">
              <option value="people">People: jobs, titles, places</option>
              <option value="companies">Companies: funding, size, moves</option>
            </select>
            <label for="watch-list-every">Checked every</label>
            <select id="watch-list-every" name="checkEvery">
              <option value="week">week</option>
              <option value="day">day</option>
              <option value="month">month</option>
            </select>
            <button type="submit" class="primary">Create watch list</button>
          </form>`,
      });
    } catch (error) {
      next(error);
    }
  });

  router.post('/watch-lists', async (req, res, next) => {
    try {
      const account = requireAccount(req, res);
      if (!account) return;
      const body = req.body as Record<string, unknown>;
      const input = parseWith(createOperation.input, { name: body.name, kind: body.kind, checkEvery: body.checkEvery });
      const list = await createWatchList(db.pool, account.accountId, input, null, {
        anyRecipient: context.config.MAIL_ANY_RECIPIENT,
        clock,
      });
      res.redirect(303, `${mount}/watch-lists/${list.watchListId}`);
    } catch (error) {
      next(error);
    }
  });

  const renderList = async (
    res: express.Response,
    accountId: number,
    listId: number,
    notice: { report?: UploadReport; message?: string } = {},
  ) => {
    const row = await requireWatchList(db.pool, accountId, listId);
    const [list, items, changes, weeks, monthly] = await Promise.all([
      viewOf(db.pool, row),
      listWatchListItems(db.pool, cursors, accountId, { watchListId: String(listId), pageSize: 50 }),
      listWatchListChanges(db.pool, cursors, accountId, { watchListId: String(listId), pageSize: 50 }),
      changesByWeek(db.pool, accountId, listId, weeksShown, clock.now()),
      estimateWatchListCost(db.pool, accountId, String(listId), 'month'),
    ]);
    const shownKinds = changeKinds.filter((kind) => weeks.some((week) => (week.byKind[kind] ?? 0) > 0));
    const totalShown = weeks.reduce((sum, week) => sum + week.total, 0);
    const { page } = localsOf(res);
    const report = notice.report;
    sendHtml(res, 200, {
      title: list.name,
      section: '/watch-lists',
      context: page,
      scripts: ['uplot.js', 'table-chart.js'],
      body: html`<p><a href="${mount}/watch-lists">Watch lists</a></p>
        <h1>${list.name}</h1>
        ${notice.message ? html`<p class="notice" role="status">${notice.message}</p>` : ''}
        <p>
          A ${list.kind} list of ${plural(list.items, 'item')}, checked every ${list.checkEvery}:
          ${plural(list.changes, 'change')} found so far. Last check ${formatTime(list.lastCheckAt)}; next
          ${list.paused ? 'none while paused' : formatTime(list.nextCheckAt)}.
          ${list.paused && list.pausedReason ? html`Paused: ${list.pausedReason}.` : ''}
        </p>
        <p>
          At most <strong data-testid="monthly-cost">${plural(monthly.totalCredits, 'credit')}</strong> a month
          (${plural(monthly.creditsPerCheck, 'credit')} an item checked).
          ${buttonForm(
            `${mount}/watch-lists/${listId}/${list.paused ? 'resume' : 'pause'}`,
            page.csrf,
            list.paused ? 'Resume checks' : 'Pause checks',
          )}
        </p>
        ${report ? uploadReport(report) : ''}
        <h2 id="changes-title">Changes by week</h2>
        <p>${plural(totalShown, 'change')} in the last ${weeksShown} weeks.</p>
        <div
          id="changes-chart"
          class="chart"
          data-table="changes-table"
          data-unit="changes"
          role="img"
          aria-label="Chart of the changes found per week by kind; the table below holds the same numbers."
        ></div>
        <details class="table-details" ${totalShown ? '' : new Html('open')}>
          <summary>The same numbers as a table</summary>
          <div class="table-wrap" role="region" tabindex="0" aria-labelledby="changes-table-caption">
            <table id="changes-table">
              <caption id="changes-table-caption">
                Changes found per week (weeks from Monday, UTC) by kind
              </caption>
              <thead>
                <tr>
                  <th scope="col">Week of</th>
                  ${shownKinds.map((kind) => html`<th scope="col">${kindLabel(kind)}</th>`)}
                  <th scope="col">Total</th>
                </tr>
              </thead>
              <tbody>
                ${weeks.map(
                  (week) =>
                    html`<tr>
                      <th scope="row">${week.weekOf}</th>
                      ${shownKinds.map((kind) => html`<td class="num">${week.byKind[kind] ?? 0}</td>`)}
                      <td class="num">${week.total}</td>
                    </tr>`,
                )}
              </tbody>
            </table>
          </div>
        </details>
        <h2>Newest changes</h2>
        ${dataTable({
          id: 'watch-list-changes-table',
          caption: `The list’s ${changes.data.length === 1 ? 'newest change' : `newest ${changes.data.length} changes`}`,
          columns: ['Detected', 'Item', 'Change', 'Before → after'],
          rows: changes.data.map(
            (change) =>
              html`<tr>
                <td>${formatTime(change.detectedAt)}</td>
                <td>
                  ${change.item.networkUrl ? html`<a href="${change.item.networkUrl}">${change.item.input}</a>` : change.item.input}
                </td>
                <td>${kindLabel(change.kind)}</td>
                <td>${describeChange(change.kind, change.before, change.after)}</td>
              </tr>`,
          ),
          empty: 'No changes yet: the first check of an item records what the network says; later checks find changes.',
        })}
        <h2>Add ${list.kind} from a CSV file</h2>
        <form method="post" action="${mount}/watch-lists/${listId}/upload" enctype="multipart/form-data" class="stack">
          ${csrfField(page.csrf)}
          <label for="watch-upload-file">CSV file</label>
          <input
            id="watch-upload-file"
            type="file"
            name="file"
            accept=".csv,text/csv,text/plain"
            aria-describedby="watch-upload-help"
          />
          <p id="watch-upload-help" class="note">
            One ${list.kind === 'people' ? 'person' : 'company'} per row:
            ${list.kind === 'people' ? 'a profile URL, slug or id' : 'a domain (example.com), company URL, slug or id'}.
            A header row naming the column (${list.kind === 'people' ? 'profile, url, slug' : 'domain, website, url'})
            is read if present. At most ${formatCredits(maxWatchListUploadRows)} rows; each new item is checked at once.
          </p>
          <label for="watch-upload-text">Or paste the rows</label>
          <textarea id="watch-upload-text" name="csv" rows="5"></textarea>
          <button type="submit" class="primary">Add items</button>
        </form>
        <h2>Items</h2>
        ${dataTable({
          id: 'watch-list-items-table',
          caption: `The list’s first ${items.data.length === 1 ? 'item' : `${items.data.length} items`}`,
          columns: ['Item', 'Last checked', 'Next check', 'Failed checks'],
          rows: items.data.map(
            (item) =>
              html`<tr>
                <td>${item.networkUrl ? html`<a href="${item.networkUrl}">${item.input}</a>` : item.input}</td>
                <td>${formatTime(item.lastCheckedAt)}</td>
                <td>${formatTime(item.nextCheckAt)}</td>
                <td class="num">${item.failedChecks}</td>
              </tr>`,
          ),
          empty: 'No items yet.',
        })}`,
    });
  };

  const listRoute = (handle: Parameters<typeof accountRecordRoute>[2]) =>
    accountRecordRoute('listId', 'No such watch list.', handle);

  router.get(
    '/watch-lists/:listId',
    listRoute((_req, res, accountId, listId) => renderList(res, accountId, listId)),
  );

  router.post(
    '/watch-lists/:listId/upload',
    listRoute(async (req, res, accountId, listId) => {
      const list = await requireWatchList(db.pool, accountId, listId);
      const column = watchListItemsFromCsv(list.kind, await uploadedText(req.body as Record<string, unknown>));
      const report: UploadReport = { added: 0, duplicates: 0, unresolved: [], notRead: column.notRead };
      // In the API's own slices, so that each is one call's transaction and the list's limit holds as it does there.
      for (let start = 0; start < column.values.length; start += watchListItemsPerCall) {
        const slice = column.values.slice(start, start + watchListItemsPerCall);
        const added = await addWatchListItems(
          db,
          clock,
          accountId,
          String(listId),
          slice.map((row) => row.value),
        );
        report.added += added.added;
        report.duplicates += added.duplicates.length;
        for (const each of added.unresolved) {
          const row = slice[each.index];
          if (row) report.unresolved.push({ line: row.line, value: row.value.slice(0, 80), reason: each.reason });
        }
      }
      await renderList(res, accountId, listId, { report });
    }),
  );

  for (const [action, paused] of [
    ['pause', true],
    ['resume', false],
  ] as const) {
    router.post(
      `/watch-lists/:listId/${action}`,
      listRoute(async (_req, res, accountId, listId) => {
        await updateWatchList(db, accountId, String(listId), { paused });
        await renderList(res, accountId, listId, {
          message: paused ? 'Checks are paused: nothing is checked or charged until they resume.' : 'Checks resumed.',
        });
      }),
    );
  }
}

function uploadReport(report: UploadReport): Html {
  const lines = (rows: { line: number; value: string; reason: string }[]) =>
    html`<ul class="plain">
      ${rows.slice(0, 100).map((r) => html`<li>line ${r.line}: <code>${r.value}</code> — ${r.reason}</li>`)}
    </ul>`;
  return html`<section class="report" aria-labelledby="watch-report-title" role="status">
    <h2 id="watch-report-title">Upload report</h2>
    <p>
      Added <strong data-testid="added">${formatCredits(report.added)}</strong>
      ${report.added === 1 ? 'item' : 'items'}; ${plural(report.duplicates, 'row')} already in the list;
      <strong data-testid="unresolved">${formatCredits(report.unresolved.length)}</strong>
      ${report.unresolved.length === 1 ? 'row matches' : 'rows match'} nothing that can be checked.
    </p>
    ${report.unresolved.length ? lines(report.unresolved) : ''}
    ${
      report.notRead.length
        ? html`<p><strong data-testid="not-read">${formatCredits(report.notRead.length)}</strong> not read:</p>
            ${lines(report.notRead)}`
        : ''
    }
  </section>`;
}
