import type { Response } from 'express';
import { html, Html } from '../auth/pages.js';
import type { Session } from './sessions.js';

export { html, Html };

/**
 * The dashboard's pages: plain HTML from the server, one stylesheet, one small script for what a
 * script does better (copying a key, drawing the chart), and nothing a page needs it for: every
 * action is a form that works without it. Every value is escaped by the `html` tag.
 */

export const mount = '/dashboard';
export const assetsPath = `${mount}/assets`;

export interface PageContext {
  session: Session | null;
  /** The CSRF token of this session's forms. */
  csrf: string;
}

const sections: { path: string; label: string }[] = [
  { path: '', label: 'Overview' },
  { path: '/keys', label: 'API keys' },
  { path: '/usage', label: 'Usage' },
  { path: '/requests', label: 'Requests' },
  { path: '/assistants', label: 'Assistants' },
  { path: '/data', label: 'Audiences and lists' },
  { path: '/watch-lists', label: 'Watch lists' },
  { path: '/team', label: 'Team' },
];

export function csrfField(csrf: string): Html {
  return html`<input type="hidden" name="csrf" value="${csrf}" />`;
}

/** A form of one button that posts to `action` (with the CSRF token). */
export function buttonForm(
  action: string,
  csrf: string,
  label: string | Html,
  options: { danger?: boolean; name?: string; hidden?: Record<string, string>; describedBy?: string } = {},
): Html {
  return html`<form method="post" action="${action}" class="inline">
    ${csrfField(csrf)}${Object.entries(options.hidden ?? {}).map(
      ([name, value]) => html`<input type="hidden" name="${name}" value="${value}" />`,
    )}
    <button
      type="submit"
      class="${options.danger ? 'danger' : ''}"
      ${options.describedBy ? new Html(` aria-describedby="${options.describedBy}"`) : ''}
    >
      ${label}
    </button>
  </form>`;
}

/**
 * A table of records as every dashboard list shows one: scrolled inside its wrapper on a narrow
 * screen, a caption, one heading a column, and a row saying so when there are no records. The
 * wrapper is a region named by the caption and reachable from the keyboard, so that a person who
 * cannot use a pointer can scroll a table wider than the screen.
 */
export function dataTable(table: {
  id: string;
  caption: string | Html;
  columns: string[];
  rows: Html[];
  empty: string | Html;
}): Html {
  return html`<div class="table-wrap" role="region" tabindex="0" aria-labelledby="${table.id}-caption">
    <table id="${table.id}">
      <caption id="${table.id}-caption">
        ${table.caption}
      </caption>
      <thead>
        <tr>
          ${table.columns.map((column) => html`<th scope="col">${column}</th>`)}
        </tr>
      </thead>
      <tbody>
        ${
          table.rows.length
            ? table.rows
            : html`<tr>
                <td colspan="${table.columns.length}">${table.empty}</td>
              </tr>`
        }
      </tbody>
    </table>
  </div>`;
}

export function formatCredits(value: number): string {
  return value.toLocaleString('en');
}

/** ISO time shown as UTC, to the minute. */
export function formatTime(iso: string | null | undefined): string {
  if (!iso) return '—';
  return `${iso.slice(0, 10)} ${iso.slice(11, 16)} UTC`;
}

export function formatDay(iso: string | null | undefined): string {
  return iso ? iso.slice(0, 10) : '—';
}

export function sendHtml(
  res: Response,
  status: number,
  page: { title: string; body: Html; context: PageContext; section?: string; scripts?: string[] },
): void {
  const { session } = page.context;
  const signedIn = session?.account ?? null;
  const nav = signedIn
    ? html`<nav aria-label="Dashboard">
        <ul>
          ${sections.map(
            (s) =>
              html`<li>
                <a href="${mount}${s.path}" ${page.section === s.path ? new Html(' aria-current="page"') : ''}
                  >${s.label}</a
                >
              </li>`,
          )}
        </ul>
      </nav>`
    : html``;
  const who = session
    ? html`<div class="who">
        <span
          >${session.identity.name ?? session.identity.email ?? session.identity.subject}${signedIn ? html` · ${signedIn.accountName} (${signedIn.role})` : ''}</span
        >
        <form method="post" action="${mount}/sign-out" class="inline">
          ${csrfField(page.context.csrf)}
          <button type="submit">Sign out</button>
        </form>
      </div>`
    : html``;
  const scripts = ['dashboard.js', ...(page.scripts ?? [])];
  res
    .status(status)
    .type('html')
    .send(
      `<!DOCTYPE html>${
        html`<html lang="en">
          <head>
            <meta charset="utf-8" />
            <meta name="viewport" content="width=device-width, initial-scale=1" />
            <title>${page.title} · Prospecting Data Service</title>
            <link rel="stylesheet" href="${assetsPath}/dashboard.css" />
            ${scripts.map((name) => html`<script src="${assetsPath}/${name}" defer></script>`)}
          </head>
          <body>
            <a class="skip" href="#main">Skip to the content</a>
            <header class="top">
              <a class="brand" href="${mount}">Prospecting Data Service</a>
              ${who}
            </header>
            ${nav}
            <main id="main">${page.body}</main>
            <footer>
              <a href="${mount}/terms">Terms</a> · <a href="/llms.txt">API rules</a> ·
              <a href="/openapi.json">OpenAPI</a>
            </footer>
          </body>
        </html>`.value
      }`,
    );
}

/** A message page (refusals, errors), in the layout. */
export function sendMessage(
  res: Response,
  status: number,
  context: PageContext,
  title: string,
  message: string,
  next?: { href: string; label: string },
): void {
  sendHtml(res, status, {
    title,
    context,
    body: html`<h1>${title}</h1>
      <p class="message" role="${status >= 400 ? 'alert' : 'status'}">${message}</p>
      ${next ? html`<p><a href="${next.href}">${next.label}</a></p>` : ''}`,
  });
}
