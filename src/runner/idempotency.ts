import { createHash } from 'node:crypto';
import { setTimeout as delay } from 'node:timers/promises';
import type { RetentionTask } from '../job-queue/index.js';
import { instanceLockSpace, type Queryable } from '../store/db.js';
import { canonicalJson } from '../core/search/cursor.js';
import { AppError, databaseFailure } from '../errors.js';

/**
 * Idempotent retries, as Stripe does them: a POST may carry `Idempotency-Key` (1 to 255
 * characters, per account, kept 24 hours). The first request with a key runs; its answer is kept
 * unless it was a 5xx or a refusal to try later (409, 429, 503), which say nothing ran. A repeat
 * with the same key and the same request gets that answer again, with `Idempotent-Replayed: true`,
 * and charges nothing; the same key with another request is 400 idempotency_mismatch; a repeat
 * while the first is still running waits up to a quarter of a second for its answer, then is 409
 * idempotency_in_flight.
 *
 * A process that dies while it runs a request leaves its claim in flight. A claim names its owner,
 * an instance that holds a liveness lock while it lives (`Database.liveInstanceKey`): a repeat that
 * finds the owner's lock free, `ownerGraceSeconds` after the claim, takes the claim over then. (The
 * grace is for a live owner whose liveness session is reconnecting, as after a failover, when
 * claims are made before the lock is taken again.) A claim without an owner is taken over once
 * `inFlightLeaseMs` has passed. Either way the repeat runs the request again under the same ledger
 * key, so that run cannot charge twice.
 * A run that answers what is not kept (5xx, 409, 429) ends its claim's lease rather than deleting
 * it: a repeat runs the request again under the same generation, hence the same ledger key, so a
 * charge that did commit although the run failed (its commit's answer lost with the connection, as
 * in a failover) is found and not made twice. A finish that fails because the database is away is
 * tried again in the background until it is written or the claim's lease ends, so that a live
 * instance's claim does not hold repeats off for the whole lease; it writes only the claim it was
 * given (its `locked_until`).
 *
 * Neither the claim nor the finish waits for the disk (asynchronous commit): each would cost a
 * WAL flush on every keyed POST, and a gateway at BACKEND_URL keys every forward. What a crash of
 * the database may then lose, and why that is safe:
 *  - A lost finish leaves the claim in flight. A repeat after the lease runs the request again under
 *    the same generation, hence the same ledger key: its charge is found in the ledger and not made
 *    again, and it answers as the first run did (same records, same creditsCharged: chargeForRecords
 *    reports the records paid for, applied now or before). Then that answer is stored.
 *  - A lost claim is harmless because it cannot outlive anything that names its ledger key: the
 *    claim's commit record is in the WAL before the handler starts, every charge commits
 *    synchronously after it, and a synchronous commit flushes the whole WAL up to its own record.
 *    So if a charge under this generation is durable, so is the claim that named it; if the claim
 *    is lost, so is every charge under it, and the repeat's new generation charges once. (This
 *    holds while the ledger key only goes into PostgreSQL: a handler that gave it to an outside
 *    service before a synchronous commit would have to flush first.)
 *  - The answer a repeat replays is made durable before it is sent (see `flushedRow`): a stored
 *    answer, once replayed, is never lost and replaced by another. Only the first caller can have
 *    received an answer that a crash of the database then forgot; its repeat runs again, as above.
 */
export const idempotencyHeader = 'idempotency-key';
export const replayedHeader = 'Idempotent-Replayed';
export const idempotencyRetentionHours = 24;
const maxKeyLength = 255;
/** How long a repeat waits for a claim in flight to finish before it is told 409: a run's answer is stored as it is sent. */
const inFlightWaitMs = 250;
/** How long after a claim its owner's free liveness lock means the owner is gone (it takes the lock again within about a second of its server). */
export const ownerGraceSeconds = 10;

/**
 * A one-row FROM item that makes the statement's (autocommit) transaction commit without waiting for
 * the WAL flush; set_config(..., true) lasts until that transaction ends, so no pooled session keeps it.
 */
const withoutWaitingForDisk = `(SELECT set_config('synchronous_commit', 'off', true)) AS commit_without_waiting_for_disk`;

export type Claim =
  | {
      kind: 'run';
      /**
       * Names this use of the key in the ledger: the same for a run taken over from a process that
       * died (so its charges are not made twice), new when an expired key is used again.
       */
      ledgerKey: string;
      finish: (status: number, body: string) => Promise<void>;
    }
  | { kind: 'replay'; status: number; body: string };

/** The key of a request, or null without one; a malformed key is a 400. */
export function idempotencyKeyOf(header: string | string[] | undefined): string | null {
  if (header === undefined) return null;
  const key = Array.isArray(header) ? header[0] : header;
  if (typeof key !== 'string' || key.length === 0 || key.length > maxKeyLength || /[^\x20-\x7e]/.test(key)) {
    throw new AppError('invalid_request', `Idempotency-Key must be 1 to ${maxKeyLength} printable ASCII characters.`, {
      details: {
        issues: [{ field: 'Idempotency-Key', message: `expected 1 to ${maxKeyLength} printable ASCII characters` }],
      },
    });
  }
  return key;
}

/** What makes two requests "the same": the endpoint and the body (without the API key, which may rotate). */
export function requestHash(method: string, path: string, body: unknown): string {
  return createHash('sha256')
    .update(`${method} ${path}\n${canonicalJson(body ?? null)}`)
    .digest('base64url');
}

/** Whether an answer is kept for repeats: not when it says nothing ran, or the service failed. */
export function isKept(status: number): boolean {
  return status < 500 && status !== 409 && status !== 429;
}

/**
 * `db` runs each statement as its own transaction (a pool, not a client inside a transaction): the
 * statements here choose how their own commit waits, which must not decide it for anything else.
 */
export async function claimIdempotencyKey(
  db: Queryable,
  claim: {
    accountId: number;
    key: string;
    hash: string;
    operationId: string;
    inFlightLeaseMs: number;
    inFlightWaitMs?: number;
    /** This instance's liveness key (`Database.liveInstanceKey()`), or null. */
    owner?: number | null;
  },
): Promise<Claim> {
  const { accountId, key, hash, operationId, inFlightLeaseMs } = claim;
  const waitUntil = Date.now() + (claim.inFlightWaitMs ?? inFlightWaitMs);
  for (let attempt = 0; ; attempt += 1) {
    // A new key, an expired one, or an in-flight claim whose lease ran out: this request runs.
    // An owner's lock is tried for the length of this statement only (xact lock): free means the owner is gone.
    const taken = await db.query<{ generation: string; locked_until: string }>(
      `INSERT INTO idempotent_requests (account_id, key, request_hash, operation_id, state, locked_until, owner, claimed_at)
       SELECT $1::bigint, $2::text, $3::text, $4::text, 'in_flight', now() + make_interval(secs => $5::double precision / 1000), $6::int, now()
         FROM ${withoutWaitingForDisk}
       ON CONFLICT (account_id, key) DO UPDATE
         SET request_hash = EXCLUDED.request_hash, operation_id = EXCLUDED.operation_id, state = 'in_flight',
             response_status = NULL, response_body = NULL, locked_until = EXCLUDED.locked_until, owner = EXCLUDED.owner,
             claimed_at = EXCLUDED.claimed_at,
             created_at = CASE WHEN idempotent_requests.created_at < now() - make_interval(hours => ${idempotencyRetentionHours})
                               THEN now() ELSE idempotent_requests.created_at END
         WHERE idempotent_requests.created_at < now() - make_interval(hours => ${idempotencyRetentionHours})
            OR (idempotent_requests.state = 'in_flight' AND idempotent_requests.request_hash = EXCLUDED.request_hash
                AND CASE WHEN idempotent_requests.locked_until < now() THEN true
                         WHEN idempotent_requests.owner IS NULL
                           OR idempotent_requests.claimed_at > now() - make_interval(secs => ${ownerGraceSeconds}) THEN false
                         ELSE pg_try_advisory_xact_lock(${instanceLockSpace}, idempotent_requests.owner) END)
       RETURNING (extract(epoch FROM created_at) * 1000000)::bigint::text AS generation, locked_until::text`,
      [accountId, key, hash, operationId, inFlightLeaseMs, claim.owner ?? null],
    );
    const generation = taken.rows[0]?.generation;
    const lockedUntil = taken.rows[0]?.locked_until;
    if (generation && lockedUntil) {
      const write = (status: number, body: string) =>
        isKept(status)
          ? db.query(
              `UPDATE idempotent_requests SET state = 'done', response_status = $4, response_body = $5
                 FROM ${withoutWaitingForDisk}
                WHERE account_id = $1 AND key = $2 AND state = 'in_flight' AND locked_until = $3::timestamptz`,
              [accountId, key, lockedUntil, status, body],
            )
          : // Not deleted: whether the run charged before it failed is not known (the database may have committed a
            // charge whose answer never came back). Its lease ends now, so the next repeat takes it over at once, under
            // this generation and so this ledger key: a charge made is found there, and not made again.
            db.query(
              `UPDATE idempotent_requests SET locked_until = now() - interval '1 millisecond'
                 FROM ${withoutWaitingForDisk}
                WHERE account_id = $1 AND key = $2 AND state = 'in_flight' AND locked_until = $3::timestamptz`,
              [accountId, key, lockedUntil],
            );
      return {
        kind: 'run',
        ledgerKey: `request:${key}:${generation}`,
        finish: async (status, body) => {
          try {
            await write(status, body);
          } catch (error) {
            if (databaseFailure(error)?.code === 'unavailable')
              finishLater(() => write(status, body), Date.now() + inFlightLeaseMs);
            throw error;
          }
        },
      };
    }
    const row = await flushedRow(db, accountId, key);
    if (!row) {
      // Deleted between the two statements (the first answered 5xx): try to take it again.
      if (attempt < 3) continue;
      throw new AppError(
        'idempotency_in_flight',
        'A request with this Idempotency-Key is changing state; retry in a moment.',
        { details: { retryAfterSeconds: 1 } },
      );
    }
    if (row.request_hash !== hash) {
      throw new AppError(
        'idempotency_mismatch',
        'This Idempotency-Key was used with a different request (another endpoint or body) in the last 24 hours. Use a new key for a new request.',
        { details: { issues: [{ field: 'Idempotency-Key', message: 'already used with a different request' }] } },
      );
    }
    if (row.state === 'in_flight') {
      // The first run's answer is sent while it is stored: a repeat sent the moment it arrived finds the claim still in
      // flight for a millisecond or two, and is answered with the replay rather than told to come back.
      if (Date.now() < waitUntil) {
        await delay(Math.min(5 * 2 ** Math.min(attempt, 4), Math.max(1, waitUntil - Date.now())));
        continue;
      }
      throw new AppError(
        'idempotency_in_flight',
        'A request with this Idempotency-Key is still running; retry after it answers.',
        {
          details: { retryAfterSeconds: 1 },
        },
      );
    }
    return { kind: 'replay', status: row.response_status ?? 200, body: row.response_body ?? 'null' };
  }
}

/** Tries a finish again every second while the database is away, until it is written or its claim's lease ends. */
function finishLater(write: () => Promise<unknown>, until: number): void {
  const timer = setTimeout(() => {
    write().catch((error: unknown) => {
      if (databaseFailure(error)?.code === 'unavailable' && Date.now() < until) finishLater(write, until);
    });
  }, 1_000);
  timer.unref();
}

/**
 * The key's row, read so that what it says is durable before anyone acts on it: the finish that
 * stored an answer did not wait for the disk, and a replay must not send an answer that a crash
 * could still take back (a later repeat would then run again and could answer otherwise). Locking
 * the row writes to the WAL, so this statement's own commit is a synchronous one, and it flushes
 * the WAL up to a point after the commit of the state it read. Only repeats pay this flush.
 */
async function flushedRow(db: Queryable, accountId: number, key: string) {
  const existing = await db.query<{
    request_hash: string;
    state: string;
    response_status: number | null;
    response_body: string | null;
  }>(
    `SELECT request_hash, state, response_status, response_body FROM idempotent_requests WHERE account_id = $1 AND key = $2 FOR UPDATE`,
    [accountId, key],
  );
  return existing.rows[0];
}

/** The retention sweep's part: keys are kept 24 hours. */
export const idempotencyKeysRetention: RetentionTask = {
  name: 'idempotencyKeysDeleted',
  sweep: async (db) => {
    const result = await db.query(
      `DELETE FROM idempotent_requests WHERE created_at < now() - make_interval(hours => ${idempotencyRetentionHours})`,
    );
    return result.rowCount ?? 0;
  },
};
