import type pg from 'pg';
import type { Logger } from '../log.js';

/**
 * Streaming replicas that serve catalog reads. A monitor samples the primary's WAL position every
 * `checkIntervalMs` and asks each replica how far it has replayed: a replica's lag is the age of
 * the newest sample it has reached ("it has everything the primary had at time T"; lag = now - T),
 * so an idle primary does not make a caught-up replica look old, and a replica far behind never
 * looks current. One that does not answer, or lags past `maxLagMs`, is left out until a later
 * check finds it well again; reads then go to the primary. Before its first good check a replica
 * serves nothing.
 */

export interface ReplicaStatus {
  /** host:port/database, never the password. */
  name: string;
  healthy: boolean;
  /** Milliseconds behind the primary at the last check; null when it could not be asked. */
  lagMs: number | null;
  reason: string | null;
  /** Catalog reads it served since start (this process). */
  reads: number;
  checkedAt: string | null;
}

export interface Replica {
  name: string;
  /** Connections for reads. */
  reads: pg.Pool;
  /** One connection for health checks and cancelling reads, so a full read pool cannot block either. */
  control: pg.Pool;
}

export interface ReplicaSetOptions {
  urls: string[];
  /** Asked for the primary's WAL position. */
  primary: pg.Pool;
  maxLagMs: number;
  checkIntervalMs: number;
  poolSize: number;
  statementTimeoutMs: number;
  connectionTimeoutMs?: number;
  log: Logger;
  createPool: (
    url: string,
    max: number,
    statementTimeoutMs?: number,
    connectionTimeoutMs?: number,
    applicationName?: string,
  ) => pg.Pool;
}

export class ReplicaSet {
  private readonly replicas: Array<Replica & { status: ReplicaStatus }>;
  private next = 0;
  private timer: NodeJS.Timeout | null = null;
  private checking: Promise<void> | null = null;
  /** The primary's WAL positions, oldest first, with when they were read. */
  private readonly samples: Array<{ lsn: bigint; at: number }> = [];
  private readonly maxSamples: number;

  constructor(private readonly options: ReplicaSetOptions) {
    // Enough history to measure lags a few times the bound; a replica behind all of it is lagging anyway.
    this.maxSamples = Math.max(10, Math.ceil((options.maxLagMs * 4) / options.checkIntervalMs));
    this.replicas = options.urls.map((url) => {
      const name = nameOf(url);
      return {
        name,
        reads: options.createPool(
          url,
          options.poolSize,
          options.statementTimeoutMs,
          options.connectionTimeoutMs,
          'prospecting-data-service (replica read)',
        ),
        control: options.createPool(url, 1, 2_000, 2_000, 'prospecting-data-service (replica check)'),
        status: { name, healthy: false, lagMs: null, reason: 'not checked yet', reads: 0, checkedAt: null },
      };
    });
  }

  /** Checks every replica once, then keeps checking in the background. */
  async start(): Promise<void> {
    await this.check();
    this.timer = setInterval(() => void this.check(), this.options.checkIntervalMs);
    this.timer.unref();
  }

  /** A healthy replica, in turn; null when none is. */
  pick(): Replica | null {
    const healthy = this.replicas.filter((r) => r.status.healthy);
    if (healthy.length === 0) return null;
    const chosen = healthy[this.next++ % healthy.length] as Replica & { status: ReplicaStatus };
    chosen.status.reads += 1;
    return chosen;
  }

  /**
   * A read failed for want of the server: leave the replica out until a check finds it well. The
   * reason reads as the check's would (`unreachable: …`), whichever of the two noticed first.
   */
  markDown(replica: Replica, failure: string): void {
    const entry = this.replicas.find((r) => r.name === replica.name);
    if (!entry || !entry.status.healthy) return;
    entry.status.healthy = false;
    entry.status.reason = `unreachable: ${failure}`;
    this.options.log.warn(
      { replica: entry.name, reason: entry.status.reason },
      'replica left out: reads go to the primary',
    );
  }

  status(): ReplicaStatus[] {
    return this.replicas.map((r) => ({ ...r.status }));
  }

  check(): Promise<void> {
    this.checking ??= this.checkAll().finally(() => {
      this.checking = null;
    });
    return this.checking;
  }

  private async checkAll(): Promise<void> {
    try {
      const row = (await this.options.primary.query<{ lsn: string }>('SELECT pg_current_wal_lsn()::text AS lsn'))
        .rows[0];
      if (row) {
        this.samples.push({ lsn: parseLsn(row.lsn), at: Date.now() });
        if (this.samples.length > this.maxSamples) this.samples.shift();
      }
    } catch {
      // The primary did not answer: judge the replicas against the samples already taken.
    }
    await Promise.all(this.replicas.map((replica) => this.checkOne(replica)));
  }

  /** How long ago the primary was at the newest position the replica has replayed; null when it is behind every sample. */
  private lagOf(replayed: bigint, now: number): number | null {
    for (let i = this.samples.length - 1; i >= 0; i -= 1) {
      const sample = this.samples[i] as { lsn: bigint; at: number };
      if (sample.lsn <= replayed)
        return i === this.samples.length - 1 ? 0 : now - (this.samples[i + 1] as { at: number }).at;
    }
    return null;
  }

  private async checkOne(replica: Replica & { status: ReplicaStatus }): Promise<void> {
    const was = replica.status.healthy;
    try {
      const result = await replica.control.query<{ recovering: boolean; replayed: string | null }>(
        'SELECT pg_is_in_recovery() AS recovering, pg_last_wal_replay_lsn()::text AS replayed',
      );
      const row = result.rows[0];
      // A server not in recovery replays nothing: it is as current as it will ever be (say, a promoted replica).
      const lagMs = !row?.recovering ? 0 : row.replayed ? this.lagOf(parseLsn(row.replayed), Date.now()) : null;
      replica.status.lagMs = lagMs;
      replica.status.healthy = lagMs !== null && lagMs <= this.options.maxLagMs;
      replica.status.reason = replica.status.healthy
        ? null
        : `lags ${lagMs === null ? 'behind every position sampled' : `${lagMs} ms`} (bound ${this.options.maxLagMs} ms)`;
    } catch (error) {
      replica.status.healthy = false;
      replica.status.lagMs = null;
      replica.status.reason = `unreachable: ${(error as Error).message}`;
    }
    replica.status.checkedAt = new Date().toISOString();
    if (was !== replica.status.healthy) {
      if (replica.status.healthy)
        this.options.log.info({ replica: replica.name, lagMs: replica.status.lagMs }, 'replica serves reads again');
      else
        this.options.log.warn(
          { replica: replica.name, reason: replica.status.reason },
          'replica left out: reads go to the primary',
        );
    }
  }

  async close(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    await this.checking?.catch(() => undefined);
    await Promise.all(this.replicas.flatMap((r) => [r.reads.end(), r.control.end()]));
  }
}

function nameOf(url: string): string {
  try {
    const parsed = new URL(url);
    return `${parsed.hostname}:${parsed.port || '5432'}${parsed.pathname}`;
  } catch {
    return 'replica';
  }
}

/** A WAL position as PostgreSQL prints it (`16/B374D848`) as one number. */
function parseLsn(text: string): bigint {
  const [high, low] = text.split('/');
  return (BigInt(`0x${high ?? '0'}`) << 32n) | BigInt(`0x${low ?? '0'}`);
}
