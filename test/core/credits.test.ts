import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAccount } from '../../src/core/accounts.js';
import { charge, credit, getBalance, listLedger } from '../../src/core/credits.js';
import { createTestDatabase, type TestDatabase } from '../helpers/database.js';

let database: TestDatabase;

beforeAll(async () => {
  database = await createTestDatabase('empty');
});
afterAll(async () => database?.drop());

async function newAccount(credits: number): Promise<number> {
  const created = await createAccount(database.db, {
    name: `ledger ${Math.random()}`,
    plan: 'pro',
    initialCredits: credits,
  });
  return created.account.id;
}

describe('credit movements with idempotency keys', () => {
  it('apply a charge once even when it left the balance at zero', async () => {
    const accountId = await newAccount(30);
    const first = await database.db.transaction((tx) =>
      charge(tx, accountId, 30, { unit: 'test', reason: 'all of it', idempotencyKey: 'job:1' }),
    );
    expect(first).toEqual({ applied: true, balanceAfter: 0 });
    const again = await database.db.transaction((tx) =>
      charge(tx, accountId, 30, { unit: 'test', reason: 'all of it', idempotencyKey: 'job:1' }),
    );
    expect(again).toEqual({ applied: false, balanceAfter: 0 });
    expect((await listLedger(database.db.pool, accountId)).map((e) => e.amount)).toEqual([-30, 30]);
  });

  it('apply a refund once, whatever the balance was when it is retried', async () => {
    const accountId = await newAccount(10);
    await database.db.transaction((tx) => charge(tx, accountId, 10, { unit: 'test', reason: 'upfront' }));
    for (let attempt = 0; attempt < 3; attempt++) {
      await database.db.transaction((tx) =>
        credit(tx, accountId, 4, { unit: 'refund', reason: 'not done', idempotencyKey: 'refund:1' }),
      );
    }
    expect(await getBalance(database.db.pool, accountId)).toBe(4);
    expect((await listLedger(database.db.pool, accountId)).filter((e) => e.unit === 'refund')).toHaveLength(1);
  });

  it('refuse a charge the balance cannot pay, taking nothing', async () => {
    const accountId = await newAccount(5);
    await expect(
      database.db.transaction((tx) => charge(tx, accountId, 6, { unit: 'test', reason: 'too much' })),
    ).rejects.toMatchObject({
      code: 'insufficient_credits',
      details: { required: 6, balance: 5 },
    });
    expect(await getBalance(database.db.pool, accountId)).toBe(5);
    expect(await listLedger(database.db.pool, accountId)).toHaveLength(1);
  });
});
