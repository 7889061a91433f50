import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestApp } from '../helpers/app.js';
import { signUp, startDashboardApp } from './helpers.js';

/**
 * A session in use with a short idle time (item 8 of issue 30): its last use was written only
 * when over a minute old, so with DASHBOARD_SESSION_IDLE_MINUTES=1 a session in use ended a
 * minute after sign-in. Now it is written at a fraction of the idle time. The clock is moved by
 * moving the session's last use back, as that much time passing would.
 */
describe('a dashboard session with an idle time of a minute', () => {
  let app: TestApp;
  beforeAll(async () => {
    app = await startDashboardApp({ env: { DASHBOARD_SESSION_IDLE_MINUTES: '1' } });
  });
  afterAll(async () => {
    await app?.stop();
  });

  it('stays signed in while it is used every 40 seconds, and ends when left a minute', async () => {
    const { browser, email } = await signUp(app);
    const subject = `email:${email}`;
    const lastUseAgo = async (): Promise<number> => {
      const row = await app.db.pool.query<{ ago: number }>(
        `SELECT extract(epoch FROM now() - last_seen_at)::float AS ago FROM dashboard_sessions WHERE subject = $1`,
        [subject],
      );
      return Number(row.rows[0]?.ago);
    };
    const passes = (seconds: number) =>
      app.db.pool.query(
        `UPDATE dashboard_sessions SET last_seen_at = last_seen_at - make_interval(secs => $2),
                created_at = created_at - make_interval(secs => $2) WHERE subject = $1`,
        [subject, seconds],
      );

    for (let use = 1; use <= 3; use += 1) {
      await passes(40);
      const page = await browser.open(`${app.url}/dashboard/keys`);
      expect(page.url.pathname, `use ${use}`).toBe('/dashboard/keys');
      expect(page.status).toBe(200);
      // Written again: the next 40 seconds count from this use, not from the sign-in.
      expect(await lastUseAgo()).toBeLessThan(10);
    }

    await passes(61);
    const idle = await browser.open(`${app.url}/dashboard/keys`);
    expect(idle.url.pathname).toBe('/dashboard/sign-in');
  });
});
