import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSsoApp, tokensWithScope, type SsoApp } from '../auth/helpers.js';
import { balanceOf, ok, testEnv, waitFor } from '../audiences/helpers.js';
import { envelope, post, tasksExtension, withTasks } from './tasks-wire.js';

/**
 * MCP tasks on /mcp/v3, where the caller is an OAuth sign-in rather than an API key: the same
 * extension, the same confirmation step, and the token's scope still decides whether anything
 * that charges may start.
 */
describe('MCP tasks on /mcp/v3', () => {
  let sso: SsoApp;
  beforeAll(async () => {
    sso = await startSsoApp({ catalog: 'seeded', env: { ...testEnv, MCP_TASK_POLL_INTERVAL_MS: '100' } });
  });
  afterAll(async () => {
    await sso?.stop();
  });

  const call = async (
    token: string,
    method: string,
    params: Record<string, unknown> = {},
    capabilities: Record<string, unknown> = withTasks,
  ) =>
    (
      await post(
        sso.resource,
        { authorization: `Bearer ${token}` },
        { method, params: { ...params, _meta: envelope(capabilities) } },
      )
    ).message;

  async function draftAudience(): Promise<string> {
    const apiKey = sso.app.apiKey;
    const created = ok(await sso.app.request('POST', '/v1/audiences/create', { apiKey, name: 'Signed-in audience' }));
    const audienceId = created.body.output.audienceId as string;
    ok(
      await sso.app.request('PATCH', `/v1/audiences/${audienceId}/search-params`, {
        apiKey,
        companySearchParams: { headquartersCountryCode: ['US'] },
        maxCompanies: 3,
      }),
    );
    return audienceId;
  }

  it('advertises the extension, and runs a confirmed build as a task to its status call', async () => {
    const { access_token: token } = await tokensWithScope(sso, 'mcp:read mcp:spend');
    const discovered = await call(token, 'server/discover', {}, {});
    expect(discovered.result.capabilities.extensions).toEqual({ [tasksExtension]: {} });

    const audienceId = await draftAudience();
    const before = await balanceOf(sso.app, sso.app.apiKey);
    const task = (
      await call(token, 'tools/call', {
        name: 'call_operation',
        arguments: { operationId: 'buildAudience', payload: { audienceId } },
      })
    ).result;
    expect(task).toMatchObject({ resultType: 'task', status: 'input_required' });
    const asked = (await call(token, 'tasks/get', { taskId: task.taskId })).result;
    const key = Object.keys(asked.inputRequests as Record<string, unknown>)[0] as string;
    expect(await balanceOf(sso.app, sso.app.apiKey)).toBe(before);

    await call(token, 'tasks/update', {
      taskId: task.taskId,
      inputResponses: { [key]: { action: 'accept', content: { confirm: true } } },
    });
    const done = await waitFor('the task to end', async () => {
      const answer = (await call(token, 'tasks/get', { taskId: task.taskId })).result;
      return ['completed', 'failed', 'cancelled'].includes(answer?.status) ? answer : null;
    });
    expect(done.status).toBe('completed');
    const status = ok(await sso.app.request('GET', `/v1/audiences/${audienceId}?apiKey=${sso.app.apiKey}`));
    expect(done.result.structuredContent.output).toEqual(status.body.output);
    expect(status.body.output.status).toBe('NORMAL');
    // Built and charged once, after the person agreed.
    expect(await balanceOf(sso.app, sso.app.apiKey)).toBeLessThan(before);
  });

  it('refuses a read-only token the start of a charged task, and makes no task', async () => {
    const { access_token: token } = await tokensWithScope(sso, 'mcp:read');
    const audienceId = await draftAudience();
    const before = await sso.app.db.pool.query('SELECT count(*)::int AS n FROM mcp_tasks');
    const answer = await post(
      sso.resource,
      { authorization: `Bearer ${token}` },
      {
        method: 'tools/call',
        params: {
          name: 'call_operation',
          arguments: { operationId: 'buildAudience', payload: { audienceId } },
          _meta: envelope(withTasks),
        },
      },
    );
    expect(answer.status).toBe(403);
    const after = await sso.app.db.pool.query('SELECT count(*)::int AS n FROM mcp_tasks');
    expect(after.rows[0].n).toBe(before.rows[0].n);
    const status = ok(await sso.app.request('GET', `/v1/audiences/${audienceId}?apiKey=${sso.app.apiKey}`));
    expect(status.body.output.status).toBe('DRAFT');
  });
});
