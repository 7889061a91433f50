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
const phoneInText = /\+\d{8,15}\b/g;
/** Fields libraries put on their errors that name people (nodemailer's rejected recipients). */
const personalErrorFields = new Set(['rejected', 'rejectedErrors', 'accepted', 'recipient', 'envelope', 'to', 'from']);

export function scrubText(text: string): string {
  return text.replace(emailInText, '[email]').replace(phoneInText, '[phone]');
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
 * The URL with the value of every credential-bearing query parameter replaced, judged by the
 * parameter's name as the query parser will read it: percent-decoded (`%61piKey`), and without
 * array or object brackets (`apiKey[]`, `apiKey[0]`), so no spelling of a key reaches a log.
 */
export function redactUrl(url: string): string {
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
