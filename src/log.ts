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
];

export function createLogger(level: string, destination?: NodeJS.WritableStream): Logger {
  return pino(
    {
      level,
      redact: { paths: redactedPaths, censor: '[redacted]' },
      base: { service: 'prospecting-data-service' },
      timestamp: pino.stdTimeFunctions.isoTime,
    },
    destination as pino.DestinationStream | undefined,
  );
}

/** Query parameters whose values are credentials: keys, tokens, OAuth codes and secrets, link signatures. */
const secretParameter = /^(apikey|api_key|key|token|access_token|refresh_token|id_token|code|client_secret|password|signature|sig)$/i;

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
