import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLogger } from '../../src/log.js';
import { startService, type RunningService } from '../../src/service.js';
import { balanceOf, ok, testEnv, waitFor } from '../audiences/helpers.js';
import { startTestApp, type TestApp } from '../helpers/app.js';
import { directPathCounts, metricsEnv } from '../helpers/direct-path.js';
import { rpc, tasksExtension } from './tasks-wire.js';

/**
 * MCP tasks on the wire (raw JSON-RPC of the 2026-07-28 era): each state of a task, the credit
 * confirmation as its input_required step, and tasks kept in PostgreSQL so that an instance that
 * never saw a task answers it. The instance the calls go to runs no jobs; a second one on the
 * same database does, slowly (JOB_STEP_DELAY_MS), so that a running job can be seen.
 */
describe('MCP tasks on the wire', () => {
  let app: TestApp;
  let worker: RunningService;
  let workerDir: string;
  const pollIntervalMs = 100;
  beforeAll(async () => {
    app = await startTestApp({
      env: {
        ...testEnv,
        ...metricsEnv,
        JOB_WORKER: 'false',
        MCP_TASK_POLL_INTERVAL_MS: String(pollIntervalMs),
        // A build is confirmed on its caps (5 companies + 20 prospects): below the default threshold.
        CONFIRM_ABOVE_CREDITS: '10',
      },
    });
    workerDir = await mkdtemp(path.join(os.tmpdir(), 'pds-tasks-worker-'));
    const config = app.service.context.config;
    worker = await startService(
      {
        ...config,
        dataDir: workerDir,
        exportDir: path.join(workerDir, 'exports'),
        JOB_WORKER: true,
        JOB_STEP_DELAY_MS: 300,
      },
      { log: createLogger('silent') },
    );
  });
  afterAll(async () => {
    await worker?.stop();
    await app?.stop();
    if (workerDir) await rm(workerDir, { recursive: true, force: true });
  });

  const filters = {
    companySearchParams: { headquartersCountryCode: ['US'], industriesV2: ['software-development'] },
    prospectSearchParams: { jobTitleV2: { included: ['manager', 'sales'] } },
    maxCompanies: 5,
    maxProspects: 20,
  };

  async function draftAudience(apiKey: string): Promise<string> {
    const created = ok(await app.request('POST', '/v1/audiences/create', { apiKey, name: 'Tasks audience' }));
    const audienceId = created.body.output.audienceId as string;
    ok(await app.request('PATCH', `/v1/audiences/${audienceId}/search-params`, { apiKey, ...filters }));
    return audienceId;
  }

  const mcp = (surface = '/mcp') => `${app.url}${surface}`;
  const getTask = (apiKey: string, taskId: string, url = mcp()) => rpc(url, apiKey, 'tasks/get', { taskId });
  const settled = (apiKey: string, taskId: string, url = mcp()) =>
    waitFor('the task to end', async () => {
      const answer = await getTask(apiKey, taskId, url);
      return ['completed', 'failed', 'cancelled'].includes(answer.result?.status) ? answer.result : null;
    });
  const jobsOf = async (accountId: number) =>
    (await app.db.pool.query('SELECT kind FROM jobs WHERE account_id = $1', [accountId])).rows;

  it('advertises the extension in server/discover on /mcp and /mcp/v2, and not to a 2025-era client', async () => {
    const { apiKey } = await app.createAccount();
    for (const surface of ['/mcp', '/mcp/v2']) {
      const discovered = await rpc(mcp(surface), apiKey, 'server/discover', {}, {});
      expect(discovered.result.capabilities.extensions).toEqual({ [tasksExtension]: {} });
    }
  });

  it('asks for the confirmation as input_required, charges nothing before it, then runs: working with progress, completed with the status call', async () => {
    const { apiKey, accountId } = await app.createAccount({ credits: 10_000 });
    const audienceId = await draftAudience(apiKey);
    const before = await balanceOf(app, apiKey);

    const created = await rpc(mcp(), apiKey, 'tools/call', {
      name: 'call_operation',
      arguments: { operationId: 'buildAudience', payload: { audienceId } },
    });
    const task = created.result;
    expect(task).toMatchObject({ resultType: 'task', status: 'input_required', pollIntervalMs });
    expect(task.taskId).toMatch(/^[\w-]{20,}$/);
    // A question waits for its answer as long as a confirmation token is valid.
    expect(task.ttlMs).toBe(15 * 60 * 1000);

    const asked = (await getTask(apiKey, task.taskId)).result;
    expect(asked.resultType).toBe('complete');
    expect(asked.status).toBe('input_required');
    const [key, request] = Object.entries(asked.inputRequests as Record<string, any>)[0]!;
    expect(request).toMatchObject({ method: 'elicitation/create', params: { mode: 'form' } });
    expect(request.params.message).toContain('costs up to 25 credits');
    // Nothing ran, nothing was charged: the audience is still a draft and no job exists.
    expect((await jobsOf(accountId)).length).toBe(0);
    expect(ok(await app.request('GET', `/v1/audiences/${audienceId}?apiKey=${apiKey}`)).body.output.status).toBe(
      'DRAFT',
    );
    expect(await balanceOf(app, apiKey)).toBe(before);

    // An answer to a key never asked is ignored.
    expect(
      (
        await rpc(mcp(), apiKey, 'tasks/update', {
          taskId: task.taskId,
          inputResponses: { other: { action: 'accept', content: { confirm: true } } },
        })
      ).result,
    ).toMatchObject({ resultType: 'complete' });
    expect((await getTask(apiKey, task.taskId)).result.status).toBe('input_required');

    const updated = await rpc(mcp(), apiKey, 'tasks/update', {
      taskId: task.taskId,
      inputResponses: { [key]: { action: 'accept', content: { confirm: true } } },
    });
    expect(updated.result).toMatchObject({ resultType: 'complete' });

    const working = (await getTask(apiKey, task.taskId)).result;
    expect(working.status).toBe('working');
    expect(working.statusMessage).toMatch(/Waiting for the build to start|Building: \d+ companies/);
    expect(working.ttlMs).toBe(86_400_000);
    expect(working.inputRequests).toBeUndefined();

    const done = await settled(apiKey, task.taskId);
    expect(done.status).toBe('completed');
    // Exactly what the status call answers, once the job is done.
    const status = ok(await app.request('GET', `/v1/audiences/${audienceId}?apiKey=${apiKey}`)).body;
    expect(done.result.structuredContent).toEqual(status);
    expect(done.result.isError).toBeUndefined();
    expect(done.statusMessage).toContain(`Built: ${status.output.numCompanies} companies`);
    expect(await balanceOf(app, apiKey)).toBe(before - status.output.numCompanies - status.output.numProspects);
    // The answer to the same key again changes nothing: the question was answered once.
    await rpc(mcp(), apiKey, 'tasks/update', {
      taskId: task.taskId,
      inputResponses: { [key]: { action: 'accept', content: { confirm: true } } },
    });
    expect((await jobsOf(accountId)).filter((job) => job.kind === 'audience.build').length).toBeLessThanOrEqual(1);
  });

  it('a declined confirmation ends the task cancelled, and nothing runs', async () => {
    const { apiKey, accountId } = await app.createAccount({ credits: 10_000 });
    const audienceId = await draftAudience(apiKey);
    const task = (await rpc(mcp('/mcp/v2'), apiKey, 'tools/call', { name: 'buildAudience', arguments: { audienceId } }))
      .result;
    expect(task).toMatchObject({ resultType: 'task', status: 'input_required' });
    const key = Object.keys((await getTask(apiKey, task.taskId, mcp('/mcp/v2'))).result.inputRequests)[0]!;
    await rpc(mcp('/mcp/v2'), apiKey, 'tasks/update', {
      taskId: task.taskId,
      inputResponses: { [key]: { action: 'decline' } },
    });
    const ended = (await getTask(apiKey, task.taskId)).result;
    expect(ended).toMatchObject({ status: 'cancelled' });
    expect(ended.statusMessage).toContain('nothing was run or charged');
    expect((await jobsOf(accountId)).length).toBe(0);
  });

  it('tasks/cancel ends a task waiting for its confirmation, before anything ran', async () => {
    const { apiKey, accountId } = await app.createAccount({ credits: 10_000 });
    const audienceId = await draftAudience(apiKey);
    const asked = (
      await rpc(mcp(), apiKey, 'tools/call', {
        name: 'call_operation',
        arguments: { operationId: 'buildAudience', payload: { audienceId } },
      })
    ).result;
    expect((await rpc(mcp(), apiKey, 'tasks/cancel', { taskId: asked.taskId })).result).toMatchObject({
      resultType: 'complete',
    });
    expect((await getTask(apiKey, asked.taskId)).result).toMatchObject({ status: 'cancelled' });
    expect((await jobsOf(accountId)).length).toBe(0);
  });

  it('a job that fails ends the task failed with the error, and the status call in its data', async () => {
    // The build finds more than this balance can pay: it ends FAILED and charges nothing.
    const { apiKey } = await app.createAccount({ credits: 3 });
    const audienceId = await draftAudience(apiKey);
    const task = (
      await rpc(mcp(), apiKey, 'tools/call', {
        name: 'call_operation',
        arguments: { operationId: 'buildAudience', payload: { audienceId } },
      })
    ).result;
    const key = Object.keys((await getTask(apiKey, task.taskId)).result.inputRequests)[0]!;
    await rpc(mcp(), apiKey, 'tasks/update', {
      taskId: task.taskId,
      inputResponses: { [key]: { action: 'accept', content: { confirm: true } } },
    });
    const failed = await settled(apiKey, task.taskId);
    expect(failed.status).toBe('failed');
    const status = ok(await app.request('GET', `/v1/audiences/${audienceId}?apiKey=${apiKey}`)).body.output;
    expect(status.status).toBe('FAILED');
    expect(failed.error).toMatchObject({ code: -32603, data: { operationId: 'getAudienceStatus', output: status } });
    expect(failed.error.message).toContain(status.failureReason);
    expect(failed.result).toBeUndefined();
    expect(await balanceOf(app, apiKey)).toBe(3);
  });

  it('a call under the confirmation threshold starts at once, is not stopped by tasks/cancel, and any instance answers it', async () => {
    const { apiKey } = await app.createAccount({ credits: 10_000 });
    const created = ok(
      await app.request('POST', '/v1/saved-searches', {
        apiKey,
        name: 'Tasks saved search',
        kind: 'companies',
        companySearchParams: { headquartersCountryCode: ['DE'] },
      }),
    );
    const savedSearchId = created.body.output.savedSearchId as string;
    const task = (
      await rpc(mcp(), apiKey, 'tools/call', {
        name: 'call_operation',
        arguments: { operationId: 'runSavedSearch', payload: { savedSearchId, maxNewRecords: 3 } },
      })
    ).result;
    expect(task).toMatchObject({ resultType: 'task', status: 'working', ttlMs: 86_400_000, pollIntervalMs });
    expect(task.statusMessage).toContain('runSavedSearch');
    // A running job is not stopped by tasks/cancel: acknowledged, and the task goes on to its end.
    expect((await rpc(mcp(), apiKey, 'tasks/cancel', { taskId: task.taskId })).result).toMatchObject({
      resultType: 'complete',
    });

    // A new process on the same database, as after a restart or behind a load balancer.
    const dir = await mkdtemp(path.join(os.tmpdir(), 'pds-tasks-other-'));
    const other = await startService(
      { ...app.service.context.config, dataDir: dir, exportDir: path.join(dir, 'exports'), JOB_WORKER: false },
      { log: createLogger('silent') },
    );
    try {
      const done = await settled(apiKey, task.taskId, `${other.url}/mcp`);
      const runId = (
        await app.db.pool.query<{ id: string }>('SELECT id::text FROM saved_search_runs WHERE saved_search_id = $1', [
          savedSearchId,
        ])
      ).rows[0]!.id;
      const status = ok(
        await app.request('GET', `/v1/saved-searches/${savedSearchId}/runs/${runId}?apiKey=${apiKey}`),
      ).body;
      expect(done).toMatchObject({ status: 'completed', result: { structuredContent: status } });
      expect(status.output).toMatchObject({ status: 'DONE', newRecords: 3, creditsCharged: 6 });
      // The same answer again, on the first instance: a finished task is kept as it ended.
      expect((await getTask(apiKey, task.taskId)).result.result).toEqual(done.result);
    } finally {
      await other.stop();
      await rm(dir, { recursive: true, force: true });
    }
  });

  it("runs a watch list's first check of added items as a task: confirmed for its monthly spend, completed with getWatchList", async () => {
    const { apiKey } = await app.createAccount({ credits: 10_000 });
    const list = ok(
      await app.request('POST', '/v1/watch-lists', { apiKey, name: 'Task list', kind: 'people', checkEvery: 'month' }),
    ).body.output;
    const slugs = (
      await app.db.pool.query<{ network_slug: string }>(
        'SELECT network_slug FROM people WHERE network_slug IS NOT NULL ORDER BY id LIMIT 12',
      )
    ).rows.map((r) => r.network_slug);
    const before = await balanceOf(app, apiKey);
    const task = (
      await rpc(mcp(), apiKey, 'tools/call', {
        name: 'call_operation',
        arguments: { operationId: 'addWatchListItems', payload: { watchListId: list.watchListId, items: slugs } },
      })
    ).result;
    // Recurring spend above the threshold (12 items, at most 31 checks a month each) is confirmed first.
    expect(task).toMatchObject({ resultType: 'task', status: 'input_required' });
    const asked = (await getTask(apiKey, task.taskId)).result;
    const [key] = Object.keys(asked.inputRequests as Record<string, unknown>);
    expect(await balanceOf(app, apiKey)).toBe(before);
    await rpc(mcp(), apiKey, 'tasks/update', {
      taskId: task.taskId,
      inputResponses: { [key as string]: { action: 'accept', content: { confirm: true } } },
    });
    const done = await settled(apiKey, task.taskId);
    expect(done.status).toBe('completed');
    const status = ok(await app.request('GET', `/v1/watch-lists/${list.watchListId}?apiKey=${apiKey}`)).body;
    expect(status.output).toMatchObject({ items: slugs.length, awaitingFirstCheck: 0 });
    expect(done.result.structuredContent).toEqual(status);
    expect(done.statusMessage).toContain(`Every item was checked once (${slugs.length})`);
    // Each item's first check, charged once.
    expect(await balanceOf(app, apiKey)).toBe(before - slugs.length);
  });

  it('answers with a plain result to a client without the extension, and refuses its tasks/* with -32021', async () => {
    const { apiKey, accountId } = await app.createAccount({ credits: 10_000 });
    const created = ok(
      await app.request('POST', '/v1/saved-searches', {
        apiKey,
        name: 'Plain saved search',
        kind: 'companies',
        companySearchParams: { headquartersCountryCode: ['DE'] },
      }),
    );
    const savedSearchId = created.body.output.savedSearchId as string;
    const plain = await rpc(
      mcp(),
      apiKey,
      'tools/call',
      {
        name: 'call_operation',
        arguments: { operationId: 'runSavedSearch', payload: { savedSearchId, maxNewRecords: 3 } },
      },
      {},
    );
    expect(plain.result.resultType).toBe('complete');
    expect(plain.result.structuredContent.output.status).toBe('QUEUED');
    expect((await app.db.pool.query('SELECT 1 FROM mcp_tasks WHERE account_id = $1', [accountId])).rowCount).toBe(0);

    const refused = await rpc(mcp(), apiKey, 'tasks/get', { taskId: 'whatever-id-of-twenty-chars' }, {});
    expect(refused.error).toMatchObject({
      code: -32021,
      data: { requiredCapabilities: { extensions: { [tasksExtension]: {} } } },
    });
  });

  it('the direct path leaves a task-augmented call to the SDK server, and answers the same call without the extension', async () => {
    const { apiKey } = await app.createAccount({ credits: 10_000 });
    const exportOf = async () => {
      const audienceId = await draftAudience(apiKey);
      // Built by hand in the database: this instance runs no jobs, and the export only needs a built audience.
      await app.db.pool.query(`UPDATE audiences SET status = 'NORMAL' WHERE id = $1`, [audienceId]);
      return { name: 'call_operation', arguments: { operationId: 'exportCompanies', payload: { audienceId } } };
    };
    const before = await directPathCounts(app.service);
    const withTask = await rpc(mcp(), apiKey, 'tools/call', await exportOf());
    expect(withTask.result).toMatchObject({ resultType: 'task', status: 'working' });
    const afterTask = await directPathCounts(app.service);
    // With the direct path off (CI's second run of the MCP tests), the SDK's path answers both, and counts nothing.
    const directPath = app.service.context.config.MCP_DIRECT_PATH;
    expect(afterTask.passedOn).toBe(before.passedOn + (directPath ? 1 : 0));
    expect(afterTask.answered).toBe(before.answered);

    const plain = await rpc(mcp(), apiKey, 'tools/call', await exportOf(), {});
    expect(plain.result).toMatchObject({
      resultType: 'complete',
      structuredContent: { output: { status: 'PENDING' } },
    });
    const afterPlain = await directPathCounts(app.service);
    expect(afterPlain.answered).toBe(afterTask.answered + (directPath ? 1 : 0));
  });

  it("another account's task is not found, as an unknown one is; a refused start makes no task", async () => {
    const owner = await app.createAccount({ credits: 10_000 });
    const stranger = await app.createAccount({ credits: 10_000 });
    const audienceId = await draftAudience(owner.apiKey);
    const task = (
      await rpc(mcp(), owner.apiKey, 'tools/call', {
        name: 'call_operation',
        arguments: { operationId: 'buildAudience', payload: { audienceId } },
      })
    ).result;
    for (const [key, taskId] of [
      [stranger.apiKey, task.taskId],
      [owner.apiKey, 'no-such-task-of-this-account'],
    ] as const) {
      for (const method of ['tasks/get', 'tasks/cancel']) {
        const answer = await rpc(mcp(), key, method, { taskId });
        expect(answer.error).toMatchObject({ code: -32602, message: 'Failed to retrieve task: Task not found' });
      }
    }
    // An export of an audience that is not built is refused (invalid state): a plain tool error, no task.
    const refused = await rpc(mcp(), owner.apiKey, 'tools/call', {
      name: 'call_operation',
      arguments: { operationId: 'exportCompanies', payload: { audienceId } },
    });
    expect(refused.result).toMatchObject({ resultType: 'complete', isError: true });
    const rows = await app.db.pool.query('SELECT operation_id FROM mcp_tasks WHERE account_id = $1', [owner.accountId]);
    expect(rows.rows).toEqual([{ operation_id: 'buildAudience' }]);
  });
});
