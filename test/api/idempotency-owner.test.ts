import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { claimIdempotencyKey, ownerGraceSeconds } from '../../src/runner/idempotency.js';
import { createLogger } from '../../src/log.js';
import { openDatabase, type Database } from '../../src/store/db.js';
import { waitFor } from '../audiences/helpers.js';
import { startTestApp, type TestApp } from '../helpers/app.js';

/**
 * An idempotency claim names the instance running it, which holds a liveness lock while it
 * lives: a repeat takes over the claim of an instance that died at once, not after the lease
 * (two minutes in the service), and never the claim of one that lives.
 */
describe('idempotency claims of an instance that dies', () => {
  let app: TestApp;
  beforeAll(async () => {
    app = await startTestApp({ catalog: 'empty' });
  });
  afterAll(async () => {
    await app?.stop();
  });

  /** Another instance's pools and liveness session, on the same database. */
  async function instance(): Promise<Database> {
    const db = openDatabase(app.service.context.config.DATABASE_URL as string, {
      max: 2,
      liveness: { log: createLogger('silent') },
    });
    // Its lock is taken on a session of its own: wait for it, as a repeat would find it free before.
    const key = db.liveInstanceKey();
    await waitFor('its liveness lock', async () => {
      const held = await app.db.pool.query(
        `SELECT 1 FROM pg_locks WHERE locktype = 'advisory' AND classid::int = -1 AND objid::int = $1 AND granted`,
        [key],
      );
      return (held.rowCount ?? 0) > 0;
    });
    return db;
  }

  it("keeps a live instance's claim, and hands a dead one's over at once under the same ledger key", async () => {
    const { accountId } = await app.createAccount({ credits: 10 });
    const claim = { accountId, key: 'owned', hash: 'h', operationId: 'companySearch', inFlightLeaseMs: 120_000 };
    const owner = await instance();
    const first = await claimIdempotencyKey(owner.pool, { ...claim, owner: owner.liveInstanceKey() });
    expect(first.kind).toBe('run');
    const survivor = await instance();
    await expect(
      claimIdempotencyKey(survivor.pool, { ...claim, owner: survivor.liveInstanceKey(), inFlightWaitMs: 50 }),
    ).rejects.toMatchObject({ code: 'idempotency_in_flight' });

    // The owner dies: its connections end, its lock with them. Within the grace after a claim, a free lock may be an owner
    // reconnecting (after a failover): the claim holds; past it, it is taken over.
    await owner.close();
    await expect(
      claimIdempotencyKey(survivor.pool, { ...claim, owner: survivor.liveInstanceKey(), inFlightWaitMs: 50 }),
    ).rejects.toMatchObject({ code: 'idempotency_in_flight' });
    await survivor.pool.query(
      `UPDATE idempotent_requests SET claimed_at = claimed_at - make_interval(secs => $3) WHERE account_id = $1 AND key = $2`,
      [accountId, claim.key, ownerGraceSeconds],
    );
    const takeover = await claimIdempotencyKey(survivor.pool, { ...claim, owner: survivor.liveInstanceKey() });
    expect(takeover.kind).toBe('run');
    if (first.kind !== 'run' || takeover.kind !== 'run') throw new Error('unreachable');
    expect(takeover.ledgerKey).toBe(first.ledgerKey);

    // A late finish of the first run writes nothing over the claim that took its place.
    await first.finish(200, '{"output":"late"}').catch(() => undefined);
    await takeover.finish(200, '{"output":"takeover"}');
    await expect(claimIdempotencyKey(survivor.pool, claim)).resolves.toEqual({
      kind: 'replay',
      status: 200,
      body: '{"output":"takeover"}',
    });
    await survivor.close();
  });

  it('waits out the lease of a claim that names no owner', async () => {
    const { accountId } = await app.createAccount({ credits: 10 });
    const claim = { accountId, key: 'ownerless', hash: 'h', operationId: 'companySearch', inFlightLeaseMs: 120_000 };
    expect((await claimIdempotencyKey(app.db.pool, claim)).kind).toBe('run');
    await expect(claimIdempotencyKey(app.db.pool, { ...claim, inFlightWaitMs: 50 })).rejects.toMatchObject({
      code: 'idempotency_in_flight',
    });
  });
});
