import type { Response } from 'express';

/**
 * The few server-rendered pages of single sign-on (consent, sign-in problems), plain HTML with
 * inline styles and no scripts. Every value is escaped; every page forbids framing
 * (clickjacking) and caching.
 */

const entities: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

export function escapeHtml(value: unknown): string {
  return String(value ?? '').replace(/[&<>"']/g, (c) => entities[c] as string);
}

/** Marks trusted HTML (built from escaped parts) so that `html` does not escape it again. */
export class Html {
  constructor(readonly value: string) {}
  toString(): string {
    return this.value;
  }
}

/** A template tag that escapes every interpolated value unless it is Html (or an array of Html). */
export function html(strings: TemplateStringsArray, ...values: unknown[]): Html {
  let out = strings[0] ?? '';
  values.forEach((value, i) => {
    const parts = Array.isArray(value) ? value : [value];
    out += parts.map((part) => (part instanceof Html ? part.value : escapeHtml(part))).join('');
    out += strings[i + 1] ?? '';
  });
  return new Html(out);
}

const style = `
  body { font: 16px/1.5 system-ui, -apple-system, "Segoe UI", sans-serif; background: #f4f5f7; color: #1d2330; margin: 0; }
  main { max-width: 34rem; margin: 3rem auto; background: #fff; border-radius: 10px; padding: 2rem 2.25rem; box-shadow: 0 1px 4px rgba(0,0,0,.12); }
  h1 { font-size: 1.35rem; margin: 0 0 1rem; }
  .service { font-size: .8rem; letter-spacing: .06em; text-transform: uppercase; color: #5b6478; margin-bottom: .5rem; }
  dl { display: grid; grid-template-columns: 9rem 1fr; gap: .35rem .75rem; margin: 1rem 0; }
  dt { color: #5b6478; } dd { margin: 0; word-break: break-word; }
  ul.scopes { padding-left: 1.2rem; } ul.scopes li { margin: .3rem 0; }
  .warning { background: #fff5e0; border: 1px solid #f0c36d; border-radius: 6px; padding: .6rem .8rem; font-size: .9rem; }
  .note { color: #5b6478; font-size: .9rem; }
  form.actions { display: flex; gap: .75rem; margin-top: 1.5rem; }
  button { font: inherit; padding: .55rem 1.3rem; border-radius: 6px; border: 1px solid #8b93a7; background: #fff; cursor: pointer; }
  button.primary { background: #1f5fd6; border-color: #1f5fd6; color: #fff; }
  code { background: #eef0f4; padding: .05rem .3rem; border-radius: 4px; }
`;

export function sendPage(res: Response, status: number, title: string, body: Html): void {
  res
    .status(status)
    .set({
      'Content-Type': 'text/html; charset=utf-8',
      'Cache-Control': 'no-store',
      'Content-Security-Policy':
        "default-src 'none'; style-src 'unsafe-inline'; img-src 'self' data:; frame-ancestors 'none'; base-uri 'none'",
      'X-Frame-Options': 'DENY',
      // same-origin, not no-referrer: with no-referrer a browser posts our forms with `Origin: null`, which the consent form refuses.
      'Referrer-Policy': 'same-origin',
      'X-Content-Type-Options': 'nosniff',
    })
    .send(
      `<!DOCTYPE html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">` +
        `<title>${escapeHtml(title)}</title><style>${style}</style></head><body><main>` +
        `<div class="service">Prospecting Data Service</div>${body.value}</main></body></html>`,
    );
}

/** A form that posts to `action` with the CSRF token; one button per choice. */
export function actionForm(
  action: string,
  csrf: string,
  buttons: { name: string; label: string; primary?: boolean }[],
): Html {
  return html`<form class="actions" method="post" action="${action}">
    <input type="hidden" name="csrf" value="${csrf}" />
    ${buttons.map((b) => html`<button type="submit" name="decision" value="${b.name}" ${b.primary ? new Html(' class="primary"') : ''}>${b.label}</button>`)}
  </form>`;
}
