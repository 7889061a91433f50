import { pino, type Logger } from 'pino';

/**
 * Keys, tokens and people's contact details must never reach a log line, whatever
 * the level: the paths below are replaced before serialisation.
 */
const redactedPaths = [
  'apiKey',
  '*.apiKey',
  'req.headers["x-api-key"]',
  'req.headers.authorization',
  'req.headers.cookie',
  'req.query.apiKey',
  'headers["x-api-key"]',
  'headers.authorization',
  'token',
  '*.token',
  'accessToken',
  '*.accessToken',
  'email',
  '*.email',
  'userEmail',
  '*.userEmail',
  'phone',
  '*.phone',
  'password',
  '*.password',
  'secret',
  '*.secret',
];

/** Addresses and phone numbers inside free text (an SMTP server's answer, an error message). */
const emailInText = /[A-Za-z0-9._%+-]+@[A-Za-z0-9-]+(?:\.[A-Za-z0-9-]+)*\.[A-Za-z]{2,}/g;
/**
 * Phone numbers as people write them: international (`+1 415 555 0100`, `+44 20 7946 0958`, `+1 (415) 555-0100`,
 * `+14155550100`), North American (`(415) 555-0100`, `415-555-0100`, `415.555.0100`) and national with a trunk 0
 * (`020 7946 0958`, `01 23 45 67 89`). A plain run of digits (an id) or digits grouped as an amount, a date, a version
 * or an address is no phone: a national form needs its separators, and every form 8 to 15 digits (E.164's length).
 */
const phoneInText = new RegExp(
  [
    String.raw`(?<![\w+])\+\d{1,3}(?:[ .-]?\(\d{1,4}\)|[ .-]?\d{1,5}){1,6}(?!\w)`,
    String.raw`(?<![\w.,-])(?:\(\d{3}\) ?|\d{3}[ .-])\d{3}[ .-]\d{4}(?!\w|[.,-]\d)`,
    String.raw`(?<![\w.,-])0\d{1,4}(?:[ .-]\d{2,5}){2,4}(?!\w|[.,-]\d)`,
  ].join('|'),
  'g',
);
const phoneDigits = { min: 8, max: 15 };
/** Fields libraries put on their errors that name people (nodemailer's rejected recipients). */
const personalErrorFields = new Set(['rejected', 'rejectedErrors', 'accepted', 'recipient', 'envelope', 'to', 'from']);

export function scrubText(text: string): string {
  return text.replace(emailInText, '[email]').replace(phoneInText, (match) => {
    const digits = match.replace(/\D/g, '').length;
    return digits >= phoneDigits.min && digits <= phoneDigits.max ? '[phone]' : match;
  });
}

/**
 * Errors are logged whole, and libraries put people's addresses in them (a mail library's
 * rejected recipients, an SMTP answer quoting the address): drop those fields and scrub the text.
 */
function scrubError(error: unknown): unknown {
  const serialised = pino.stdSerializers.err(error as Error) as unknown as Record<string, unknown>;
  if (!serialised || typeof serialised !== 'object') return serialised;
  const scrubbed: Record<string, unknown> = {};
  for (const [name, value] of Object.entries(serialised)) {
    if (personalErrorFields.has(name)) continue;
    scrubbed[name] =
      typeof value === 'string' ? scrubText(value) : name === 'cause' && value ? scrubError(value) : value;
  }
  return scrubbed;
}

export function createLogger(level: string, destination?: NodeJS.WritableStream): Logger {
  return pino(
    {
      level,
      redact: { paths: redactedPaths, censor: '[redacted]' },
      serializers: { err: scrubError, error: scrubError },
      base: { service: 'prospecting-data-service' },
      timestamp: pino.stdTimeFunctions.isoTime,
    },
    destination as pino.DestinationStream | undefined,
  );
}

/** Query parameters whose values are credentials: keys, tokens, OAuth codes and secrets, link signatures. */
const secretParameter =
  /^(apikey|api_key|key|token|access_token|refresh_token|id_token|code|state|code_verifier|client_secret|password|signature|sig)$/i;

/**
 * A run of characters that may spell part of an API key in a URL or text: the key's own alphabet
 * (base64url), or any percent-escape, since `pds%5F...`, `%70ds_...` and `pds%255F...` are the
 * same key to whoever decodes them.
 */
const keyAlphabetRun = /(?:[A-Za-z0-9_-]|%[0-9A-Fa-f]{2})+/g;
/** An API key (src/core/api-keys.ts: `pds_` and 43 base64url characters), or enough of one to matter. */
const keyShaped = /pds_[A-Za-z0-9_-]{16,}/i;

function percentDecoded(run: string): string {
  let text = run;
  // Up to three rounds: a key escaped twice (%255F) is still a key to a client that decodes twice.
  for (let round = 0; round < 3 && text.includes('%'); round += 1) {
    const next = text.replace(/%([0-9A-Fa-f]{2})/g, (_escape, hex: string) => String.fromCharCode(parseInt(hex, 16)));
    if (next === text) break;
    text = next;
  }
  return text;
}

/**
 * The text with every key-shaped token replaced, wherever it stands (a path segment, a matrix
 * parameter, a query value under any name, percent-escaped or not): for request logs of any
 * kind, which must never hold a key whatever name it was sent under.
 */
export function redactKeyShaped(text: string): string {
  return text.replace(keyAlphabetRun, (run) => (keyShaped.test(percentDecoded(run)) ? '[redacted]' : run));
}

/**
 * The URL with the value of every credential-bearing query parameter replaced, judged by the
 * parameter's name as the query parser will read it: percent-decoded (`%61piKey`), and without
 * array or object brackets (`apiKey[]`, `apiKey[0]`); and then every key-shaped token anywhere
 * in it (redactKeyShaped), so no spelling of a key, under any name or none, reaches a log.
 */
export function redactUrl(url: string): string {
  return redactKeyShaped(redactQueryCredentials(url));
}

function redactQueryCredentials(url: string): string {
  const queryStart = url.indexOf('?');
  if (queryStart < 0) return url;
  const fragmentStart = url.indexOf('#', queryStart);
  const query = url.slice(queryStart + 1, fragmentStart < 0 ? undefined : fragmentStart);
  const redacted = query.split('&').map((part) => {
    const equals = part.indexOf('=');
    const rawName = equals < 0 ? part : part.slice(0, equals);
    let name = rawName;
    try {
      name = decodeURIComponent(rawName.replace(/\+/g, ' '));
    } catch {
      // A malformed escape: judge the name as it came.
    }
    return secretParameter.test(name.replace(/\[.*$/, '').trim()) ? `${rawName}=[redacted]` : part;
  });
  return `${url.slice(0, queryStart)}?${redacted.join('&')}`;
}

export type { Logger };
