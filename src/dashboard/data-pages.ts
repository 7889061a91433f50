import type express from 'express';
import { createExclusionList as createListOperation } from '../../operations/index.js';
import { listAudiences } from '../core/audiences/audiences.js';
import { csvRecord } from '../core/audiences/csv.js';
import { latestEnrichments, recentExports } from '../core/audiences/overview.js';
import { signedLink } from '../core/audiences/services.js';
import { entriesFromCsv } from '../core/exclusion-list-upload.js';
import {
  addExclusionListEntries,
  createExclusionList,
  listExclusionListEntries,
  listExclusionLists,
  requireExclusionList,
  type EntriesAdded,
} from '../core/exclusion-lists.js';
import { parseWith } from '../validation.js';
import { accountRecordRoute, localsOf, requireAccount, type DashboardDeps } from './deps.js';
import { csrfField, dataTable, formatCredits, formatDay, formatTime, html, mount, sendHtml } from './layout.js';

/** Audiences (status and progress), their ready exports (signed download links), and exclusion lists (CSV in and out). */

/** A CSV upload: the file's text, or what was pasted in the text box. */
export async function uploadedText(body: Record<string, unknown>): Promise<string> {
  const file = body.file;
  if (file instanceof Blob && file.size > 0) return file.text();
  return typeof body.csv === 'string' ? body.csv : '';
}

export function dataPages(router: express.Router, deps: DashboardDeps): void {
  const { context } = deps;
  const db = context.db;
  const cursors = context.services.cursors;

  router.get('/data', async (req, res, next) => {
    try {
      const account = requireAccount(req, res);
      if (!account) return;
      const [audiences, exports, lists] = await Promise.all([
        listAudiences(db.pool, cursors, account.accountId, { pageSize: 50 }),
        recentExports(db.pool, account.accountId, 50),
        listExclusionLists(db.pool, cursors, account.accountId, { pageSize: 100 }),
      ]);
      const runs = await latestEnrichments(
        db.pool,
        account.accountId,
        audiences.data.map((a) => Number(a.audienceId)),
      );
      const names = new Map(audiences.data.map((a) => [a.audienceId, a.name]));
      const { page } = localsOf(res);
      sendHtml(res, 200, {
        title: 'Audiences and lists',
        section: '/data',
        context: page,
        body: html`<h1>Audiences and lists</h1>
          <h2>Audiences</h2>
          ${dataTable({
            id: 'audiences-table',
            caption: html`The account's audiences, newest first (built and enriched through the API or an assistant)`,
            columns: ['Name', 'Status', 'Companies', 'Prospects', 'Enrichment', 'Created'],
            rows: audiences.data.map((a) => {
              const run = runs.get(Number(a.audienceId));
              return html`<tr>
                <td>${a.name}</td>
                <td>${a.status}</td>
                <td class="num">${formatCredits(a.numCompanies)}</td>
                <td class="num">${formatCredits(a.numProspects)}</td>
                <td>
                  ${
                    run
                      ? html`${run.status === 'RUNNING' ? run.currentStage.toLowerCase().replace(/_/g, ' ') : run.status.toLowerCase().replace(/_/g, ' ')}
                          <progress max="100" value="${run.progressPercent}" aria-label="Enrichment of ${a.name}">
                            ${run.progressPercent}%
                          </progress>
                          ${run.progressPercent}%`
                      : 'none'
                  }
                </td>
                <td>${formatDay(a.createdAt)}</td>
              </tr>`;
            }),
            empty: 'No audiences yet.',
          })}
          <h2>Exports</h2>
          ${dataTable({
            id: 'exports-table',
            caption: `Recent exports; a ready one downloads through a signed link valid for ${Math.round(context.config.EXPORT_LINK_TTL_SECONDS / 86400)} days`,
            columns: ['Audience', 'Kind', 'Status', 'Rows', 'Created', 'File'],
            rows: exports.map(
              (e) =>
                html`<tr>
                  <td>${names.get(String(e.audience_id)) ?? `audience ${e.audience_id}`}</td>
                  <td>${e.kind}</td>
                  <td>${e.status}</td>
                  <td class="num">${e.rows === null ? '—' : formatCredits(e.rows)}</td>
                  <td>${formatTime(e.created_at.toISOString())}</td>
                  <td>
                    ${
                      e.status === 'READY'
                        ? html`<a class="button" href="${signedLink(context, e).url}" download
                            >Download <span class="visually-hidden">${e.kind} export ${e.id}</span></a
                          >`
                        : '—'
                    }
                  </td>
                </tr>`,
            ),
            empty: 'No exports yet.',
          })}
          <h2>Exclusion lists</h2>
          <p>Companies or people to leave out of searches, counts and audience builds.</p>
          ${dataTable({
            id: 'lists-table',
            caption: html`The account's exclusion lists`,
            columns: ['Name', 'Kind', 'Entries', 'Records excluded', 'Unmatched', 'Created'],
            rows: lists.data.map(
              (l) =>
                html`<tr>
                  <td><a href="${mount}/lists/${l.exclusionListId}">${l.name}</a></td>
                  <td>${l.kind}</td>
                  <td class="num">${formatCredits(l.entries)}</td>
                  <td class="num">${formatCredits(l.size)}</td>
                  <td class="num">${formatCredits(l.unmatchedEntries)}</td>
                  <td>${formatDay(l.createdAt)}</td>
                </tr>`,
            ),
            empty: 'No exclusion lists yet.',
          })}
          <h3>New list</h3>
          <form method="post" action="${mount}/lists" class="stack">
            ${csrfField(page.csrf)}
            <label for="list-name">Name</label>
            <input id="list-name" name="name" required maxlength="200" />
            <label for="list-kind">Kind</label>
            <select id="list-kind" name="kind">
              <option value="companies">Companies (domains, company URLs)</option>
              <option value="prospects">Prospects (profile URLs)</option>
            </select>
            <button type="submit" class="primary">Create list</button>
          </form>`,
      });
    } catch (error) {
      next(error);
    }
  });

  router.post('/lists', async (req, res, next) => {
    try {
      const account = requireAccount(req, res);
      if (!account) return;
      const body = req.body as Record<string, unknown>;
      const input = parseWith(createListOperation.input, { name: body.name, kind: body.kind });
      const list = await createExclusionList(db, account.accountId, input);
      res.redirect(303, `${mount}/lists/${list.exclusionListId}`);
    } catch (error) {
      next(error);
    }
  });

  const renderList = async (
    res: express.Response,
    accountId: number,
    listId: number,
    report: {
      added: EntriesAdded | null;
      notUnderstood: { line: number; value: string; reason: string }[];
      unmatchedLines: number[];
    } | null,
  ) => {
    const list = await requireExclusionList(db.pool, accountId, listId);
    const entries = await listExclusionListEntries(db.pool, cursors, accountId, {
      exclusionListId: String(listId),
      pageSize: 50,
    });
    const { page } = localsOf(res);
    sendHtml(res, 200, {
      title: list.name,
      section: '/data',
      context: page,
      body: html`<p><a href="${mount}/data">Audiences and lists</a></p>
        <h1>${list.name}</h1>
        <p>
          A ${list.kind} list: ${formatCredits(list.entries)} entries, excluding ${formatCredits(list.records)} records;
          ${formatCredits(list.unmatched_entries)} entries match nothing (yet).
          <a class="button" href="${mount}/lists/${listId}/entries.csv" download>Download CSV</a>
        </p>
        ${
          report
            ? html`<section class="report" aria-labelledby="report-title" role="status">
                <h2 id="report-title">Upload report</h2>
                <p>
                  ${
                    report.added
                      ? html`Added <strong data-testid="added">${report.added.added}</strong> entries;
                          ${report.added.duplicates.length} already in the list; ${report.added.unmatched.length} kept
                          that match no
                          record${report.unmatchedLines.length ? ` (lines ${report.unmatchedLines.slice(0, 20).join(', ')}${report.unmatchedLines.length > 20 ? ', …' : ''})` : ''}.`
                      : 'Nothing was added.'
                  }
                </p>
                ${
                  report.notUnderstood.length
                    ? html`<p>
                          <strong data-testid="not-understood">${report.notUnderstood.length}</strong> rows were not
                          understood and left out:
                        </p>
                        <ul class="plain">
                          ${report.notUnderstood.slice(0, 100).map((r) => html`<li>line ${r.line}: <code>${r.value}</code> — ${r.reason}</li>`)}
                        </ul>`
                    : ''
                }
              </section>`
            : ''
        }
        <h2>Add entries from a CSV file</h2>
        <form method="post" action="${mount}/lists/${listId}/upload" enctype="multipart/form-data" class="stack">
          ${csrfField(page.csrf)}
          <label for="upload-file">CSV file</label>
          <input
            id="upload-file"
            type="file"
            name="file"
            accept=".csv,text/csv,text/plain"
            aria-describedby="upload-help"
          />
          <p id="upload-help" class="note">
            One entry per row:
            ${list.kind === 'companies' ? 'a domain (example.com) or a company URL' : 'a profile URL or slug'}. A header
            row naming the column (${list.kind === 'companies' ? 'domain, website' : 'profile, url'}) is read if
            present. At most 10,000 rows.
          </p>
          <label for="upload-text">Or paste the rows</label>
          <textarea id="upload-text" name="csv" rows="5"></textarea>
          <button type="submit" class="primary">Add entries</button>
        </form>
        <h2>First entries</h2>
        ${dataTable({
          id: 'entries-table',
          caption: html`The list's first ${entries.data.length} entries`,
          columns: ['Entry', 'Matched records', 'Added'],
          rows: entries.data.map(
            (e) =>
              html`<tr>
                <td>${e.prospect ?? Object.values(e.company ?? {}).join(' ')}</td>
                <td class="num">${e.matchedRecords}</td>
                <td>${formatDay(e.addedAt)}</td>
              </tr>`,
          ),
          empty: 'No entries yet.',
        })}`,
    });
  };

  const listRoute = (handle: Parameters<typeof accountRecordRoute>[2]) =>
    accountRecordRoute('listId', 'No such exclusion list.', handle);

  router.get(
    '/lists/:listId',
    listRoute((req, res, accountId, listId) => renderList(res, accountId, listId, null)),
  );

  router.post(
    '/lists/:listId/upload',
    listRoute(async (req, res, accountId, listId) => {
      const list = await requireExclusionList(db.pool, accountId, listId);
      const parsed = entriesFromCsv(list.kind, await uploadedText(req.body as Record<string, unknown>));
      const count = parsed.companies.length + parsed.prospects.length;
      const added = count
        ? await addExclusionListEntries(
            db,
            accountId,
            String(listId),
            list.kind === 'companies' ? { companies: parsed.companies } : { prospects: parsed.prospects },
          )
        : null;
      await renderList(res, accountId, listId, {
        added,
        notUnderstood: parsed.notUnderstood,
        unmatchedLines: (added?.unmatched ?? []).map((i) => parsed.lines[i] ?? 0),
      });
    }),
  );

  router.get(
    '/lists/:listId/entries.csv',
    listRoute(async (req, res, accountId, listId) => {
      const list = await requireExclusionList(db.pool, accountId, listId);
      res.set({
        'Content-Type': 'text/csv; charset=utf-8',
        'Content-Disposition': `attachment; filename="exclusion-list-${listId}.csv"`,
        'Cache-Control': 'private, no-store',
      });
      const columns =
        list.kind === 'companies'
          ? ['entry_id', 'domain', 'network_slug_or_url', 'name', 'network_org_id', 'matched_records', 'added_at']
          : ['entry_id', 'profile', 'matched_records', 'added_at'];
      res.write(csvRecord(columns));
      let cursor: string | null = null;
      for (;;) {
        const pageOf: Awaited<ReturnType<typeof listExclusionListEntries>> = await listExclusionListEntries(
          db.pool,
          cursors,
          accountId,
          { exclusionListId: String(listId), pageSize: 1000, cursor },
        );
        for (const e of pageOf.data) {
          const c = e.company ?? {};
          res.write(
            csvRecord(
              list.kind === 'companies'
                ? [
                    e.entryId,
                    c.domain ?? '',
                    c.networkSlugOrURL ?? '',
                    c.name ?? '',
                    c.networkOrgID ?? '',
                    String(e.matchedRecords),
                    e.addedAt,
                  ]
                : [e.entryId, e.prospect ?? '', String(e.matchedRecords), e.addedAt],
            ),
          );
        }
        if (!pageOf.nextCursor) break;
        cursor = pageOf.nextCursor;
      }
      res.end();
    }),
  );
}
