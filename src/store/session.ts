import type pg from 'pg';
import type { Logger } from '../log.js';

/**
 * A database connection kept open outside the pools, for what lives in a session rather than in
 * a statement: LISTEN, session advisory locks. When the connection is lost (the server restarted,
 * a failover cut it) the session connects again by itself, with a growing pause between tries,
 * and runs `onConnected` again (a LISTEN must be repeated on the new connection); what the old
 * connection held is gone, which `generation` lets its users tell.
 */
export interface KeptSessionOptions {
  /** Names the session in logs. */
  name: string;
  /** A new client, not yet connected. */
  client: () => pg.Client;
  /** Run on every new connection before it is used (LISTEN ...). */
  onConnected?: (client: pg.Client) => Promise<void>;
  /** The connection was lost: everything it held is gone. */
  onLost?: () => void;
  log: Logger;
  /**
   * First and longest pause between connection attempts (default 250 ms and 1 s: a session that
   * holds a liveness lock or hears of jobs should be back within a second of its server).
   */
  retryMs?: { first: number; longest: number };
  /**
   * A statement this often keeps an idle session from being cut by a proxy's idle timeout (HAProxy's
   * `timeout client`/`timeout server`), which would drop what it holds for no reason. Default 60 s.
   */
  pingMs?: number;
}

/** Thrown when the session has no connection: worded and coded as a lost connection, so that it is answered 503. */
export class SessionUnavailable extends Error {
  readonly code = '08006';
  constructor(name: string) {
    super(`Connection terminated: the ${name} session is reconnecting`);
    this.name = 'SessionUnavailable';
  }
}

export class KeptSession {
  private client: pg.Client | null = null;
  private connecting: Promise<void> | null = null;
  private retryTimer: NodeJS.Timeout | null = null;
  private pause: number;
  private stopped = false;
  private generationCount = 0;
  private pinger: NodeJS.Timeout | null = null;

  constructor(private readonly options: KeptSessionOptions) {
    this.pause = options.retryMs?.first ?? 250;
  }

  /** Connects (now, and again whenever the connection is lost) until `stop()`; resolves after the first attempt. */
  start(): Promise<void> {
    this.pinger ??= setInterval(() => {
      this.client?.query('SELECT 1').catch(() => undefined);
    }, this.options.pingMs ?? 60_000);
    this.pinger.unref();
    return this.connect();
  }

  /** Whether a connection is up now. */
  get connected(): boolean {
    return this.client !== null;
  }

  /** Which connection this is: it grows by one each time a new connection comes up. */
  get generation(): number {
    return this.generationCount;
  }

  /** Runs a statement on the session's connection; throws SessionUnavailable while there is none. */
  async query<Row extends pg.QueryResultRow>(
    text: string,
    values?: unknown[],
  ): Promise<{ rows: Row[]; generation: number }> {
    const client = this.client;
    if (!client) {
      this.scheduleConnect(0);
      throw new SessionUnavailable(this.options.name);
    }
    const generation = this.generationCount;
    const result = await client.query<Row>(text, values);
    return { rows: result.rows, generation };
  }

  async stop(): Promise<void> {
    this.stopped = true;
    if (this.retryTimer) clearTimeout(this.retryTimer);
    if (this.pinger) clearInterval(this.pinger);
    await this.connecting?.catch(() => undefined);
    const client = this.client;
    this.client = null;
    await client?.end().catch(() => undefined);
  }

  private connect(): Promise<void> {
    this.connecting ??= this.attempt().finally(() => {
      this.connecting = null;
    });
    return this.connecting;
  }

  private async attempt(): Promise<void> {
    if (this.stopped || this.client) return;
    const client = this.options.client();
    let lost = false;
    const onLost = (): void => {
      if (lost) return;
      lost = true;
      if (this.client !== client) return;
      this.client = null;
      this.options.log.warn({ session: this.options.name }, 'database session lost; reconnecting');
      this.options.onLost?.();
      client.end().catch(() => undefined);
      this.scheduleConnect(0);
    };
    // An error on an idle session must not end the process; it ends the session.
    client.on('error', onLost);
    client.on('end', onLost);
    try {
      await client.connect();
      await this.options.onConnected?.(client);
    } catch (error) {
      lost = true;
      await client.end().catch(() => undefined);
      if (!this.stopped) {
        this.options.log.debug({ session: this.options.name, err: error }, 'database session could not connect');
        this.scheduleConnect(this.pause);
        this.pause = Math.min(this.pause * 2, this.options.retryMs?.longest ?? 1_000);
      }
      return;
    }
    if (this.stopped) {
      await client.end().catch(() => undefined);
      return;
    }
    this.pause = this.options.retryMs?.first ?? 250;
    this.generationCount += 1;
    this.client = client;
  }

  /** Called from a failed attempt too (while `connecting` is still set): a try under way is joined by `connect`. */
  private scheduleConnect(delayMs: number): void {
    if (this.stopped || this.retryTimer) return;
    this.retryTimer = setTimeout(() => {
      this.retryTimer = null;
      // After the try under way, if any: it may be failing, and a failed try must be followed by another.
      void (this.connecting ?? Promise.resolve()).then(() => this.connect());
    }, delayMs);
    this.retryTimer.unref();
  }
}
