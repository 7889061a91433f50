import { SMTPServer, type SMTPServerAddress, type SMTPServerSession } from 'smtp-server';
import type { AddressInfo } from 'node:net';

export interface ReceivedMail {
  from: string;
  to: string[];
  raw: string;
}

/**
 * A real SMTP server for tests (the smtp-server package), plain text on a free port. `failNext`
 * makes the next recipients fail with a temporary 451, as a busy or greylisting server does.
 */
export async function startSmtpServer(): Promise<{
  url: string;
  received: ReceivedMail[];
  failNext(count: number, code?: number): void;
  stop(): Promise<void>;
}> {
  const received: ReceivedMail[] = [];
  let failures = 0;
  let failCode = 451;
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['AUTH', 'STARTTLS'],
    logger: false,
    onRcptTo(_address: SMTPServerAddress, _session: SMTPServerSession, callback: (error?: Error | null) => void) {
      if (failures > 0) {
        failures -= 1;
        const error = Object.assign(new Error('Mailbox busy, try again later'), { responseCode: failCode });
        callback(error);
        return;
      }
      callback();
    },
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('end', () => {
        received.push({
          from: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
          to: session.envelope.rcptTo.map((r) => r.address),
          raw: Buffer.concat(chunks).toString('utf8'),
        });
        callback();
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  const port = (server.server.address() as AddressInfo).port;
  return {
    url: `smtp://127.0.0.1:${port}`,
    received,
    failNext: (count, code = 451) => {
      failures = count;
      failCode = code;
    },
    stop: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
