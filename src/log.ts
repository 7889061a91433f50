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

/** Removes credentials from a URL's query before it is logged: API keys, tokens, and OAuth codes and state on their way back from a sign-in. */
export function redactUrl(url: string): string {
  return url.replace(/([?&](?:apiKey|api_key|token|access_token|refresh_token|code|state|code_verifier|client_secret)=)[^&#]*/gi, '$1[redacted]');
}

export type { Logger };
