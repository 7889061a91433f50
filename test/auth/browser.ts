/**
 * A headless stand-in for the person's browser in the OAuth tests: follows redirects one hop at
 * a time with a cookie jar (per host name and path, whatever the port, as a browser keeps them), and can submit the
 * forms of the pages it lands on. It stops at a URL the test names (the MCP client's redirect
 * URI), as a browser would hand that URL to the client.
 */
export interface Page {
  url: URL;
  status: number;
  headers: Headers;
  text: string;
}

interface StoredCookie {
  name: string;
  value: string;
  host: string;
  path: string;
}

export class HeadlessBrowser {
  private cookies: StoredCookie[] = [];
  /** Every URL visited, in order. */
  readonly visited: URL[] = [];
  /** The Origin forms are posted with when it is not the page's own (a load balancer in front of several instances). */
  publicOrigin: string | null = null;

  /** Goes to `url` and follows redirects until a page, or a URL for which `stopAt` is true. */
  async open(url: string | URL, stopAt: (url: URL) => boolean = () => false, init: RequestInit = {}): Promise<Page> {
    let current = new URL(url);
    let request: RequestInit = init;
    for (let hop = 0; hop < 20; hop += 1) {
      this.visited.push(current);
      if (stopAt(current)) return { url: current, status: 0, headers: new Headers(), text: '' };
      const headers = new Headers(request.headers);
      const cookie = this.cookieHeader(current);
      if (cookie) headers.set('cookie', cookie);
      // A page that never comes fails the run (tests, scripts/mcp-inspector.ts), naming it, instead of holding it.
      const signal = AbortSignal.timeout(30_000);
      try {
        const response = await fetch(current, { ...request, headers, redirect: 'manual', signal });
        this.remember(current, response.headers);
        const location = response.headers.get('location');
        if (response.status >= 300 && response.status < 400 && location) {
          current = new URL(location, current);
          request = {};
          continue;
        }
        return { url: current, status: response.status, headers: response.headers, text: await response.text() };
      } catch (error) {
        if (!signal.aborted) throw error;
        throw new Error(`${request.method ?? 'GET'} ${current.href} had no complete answer within 30 s`, {
          cause: error,
        });
      }
    }
    throw new Error(`too many redirects from ${String(url)}`);
  }

  /**
   * Submits a form of `page`, as a browser would: the one whose button has this value (and whose
   * action contains `actionContains`, when given), with that button pressed.
   */
  async submit(
    page: Page,
    buttonValue: string | null,
    stopAt: (url: URL) => boolean = () => false,
    extra: Record<string, string> = {},
    actionContains?: string,
  ): Promise<Page> {
    const forms = [...page.text.matchAll(/<form[^>]*action="([^"]+)"[^>]*>([\s\S]*?)<\/form>/g)].filter(
      ([, action]) => actionContains === undefined || decode(action as string).includes(actionContains),
    );
    const form =
      forms.find(([, , body]) => buttonValue === null || (body as string).includes(`value="${buttonValue}"`)) ??
      forms[0];
    if (!form) throw new Error(`no form on ${page.url.href}: ${page.text.slice(0, 300)}`);
    const action = new URL(decode(form[1] as string), page.url);
    const fields = new URLSearchParams();
    for (const input of (form[2] as string).matchAll(/<input[^>]*name="([^"]+)"[^>]*value="([^"]*)"/g))
      fields.set(decode(input[1] as string), decode(input[2] as string));
    const button = /<button[^>]*name="([^"]+)"[^>]*value="([^"]+)"/.exec(form[2] as string);
    if (buttonValue !== null && button) fields.set(decode(button[1] as string), buttonValue);
    for (const [name, value] of Object.entries(extra)) fields.set(name, value);
    return this.open(action, stopAt, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', origin: this.publicOrigin ?? page.url.origin },
      body: fields.toString(),
    });
  }

  private cookieHeader(url: URL): string {
    return this.cookies
      .filter((c) => c.host === url.hostname && url.pathname.startsWith(c.path))
      .map((c) => `${c.name}=${c.value}`)
      .join('; ');
  }

  private remember(url: URL, headers: Headers): void {
    for (const line of headers.getSetCookie()) {
      const [pair, ...attributes] = line.split(';').map((part) => part.trim());
      const eq = (pair as string).indexOf('=');
      const name = (pair as string).slice(0, eq);
      const value = (pair as string).slice(eq + 1);
      const pathAttribute = attributes.find((a) => a.toLowerCase().startsWith('path='));
      const path = pathAttribute ? pathAttribute.slice(5) : '/';
      const expired =
        attributes.some((a) => /^expires=/i.test(a) && Date.parse(a.slice(8)) < Date.now()) ||
        attributes.some((a) => /^max-age=0$/i.test(a));
      this.cookies = this.cookies.filter((c) => !(c.name === name && c.host === url.hostname && c.path === path));
      if (!expired && value !== '') this.cookies.push({ name, value, host: url.hostname, path });
    }
  }
}

function decode(value: string): string {
  return value
    .replace(/&amp;/g, '&')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'");
}
