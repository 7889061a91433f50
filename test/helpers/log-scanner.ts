import { Writable } from 'node:stream';

/**
 * Every test service logs at debug level into this scanner, so the whole suite's traffic goes
 * through the logger and is checked: no API key, bearer token, webhook signing secret, email address or phone
 * number of a person may appear in any line. The service's own sender address is not a person's.
 */
const patterns: Array<[string, RegExp]> = [
  ['an API key', /pds_[A-Za-z0-9_-]{16,}/],
  ['a bearer token', /Bearer\s+[A-Za-z0-9._~+/-]{12,}/i],
  ['a webhook signing secret', /whsec_[A-Za-z0-9+/=]{16,}/],
  ['an email address', /[A-Za-z0-9._%+-]+@[A-Za-z0-9-]+(?:\.[A-Za-z0-9-]+)*\.[A-Za-z]{2,}/],
  ['a phone number', /\+\d{8,15}\b/],
];
const allowed = [/no-reply@prospecting\.local/g, /"messageId":"<[^"]*>"/g];

export interface LogScanner {
  stream: Writable;
  /** Lines that held something they must not, with what. */
  findings: string[];
  /** Values that must not appear even where no pattern would catch them (OAuth tokens, secrets). */
  forbid(value: string): void;
}

export function createLogScanner(): LogScanner {
  const findings: string[] = [];
  const forbidden = new Set<string>();
  const stream = new Writable({
    write(chunk: Buffer, _encoding, done) {
      for (const line of chunk.toString('utf8').split('\n')) {
        if (!line) continue;
        let text = line;
        for (const allowedValue of allowed) text = text.replace(allowedValue, '');
        for (const [what, pattern] of patterns) {
          if (pattern.test(text)) findings.push(`${what} in: ${line.slice(0, 3000)}`);
        }
        for (const value of forbidden)
          if (text.includes(value)) findings.push(`a forbidden value in: ${line.slice(0, 300)}`);
      }
      done();
    },
  });
  return { stream, findings, forbid: (value) => forbidden.add(value) };
}
