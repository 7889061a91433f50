import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import {
  TaskFailedError,
  createTaskSessionFromClient,
  resultFromTaskOutcome,
  type ApplicationElicitResult,
  type TaskEnabledSession,
  type TaskView,
} from '@modelcontextprotocol/ext-tasks/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { balanceOf, ok, testEnv } from '../audiences/helpers.js';
import { startTestApp, type TestApp } from '../helpers/app.js';
import { clientInfo, modernRevision, rawDispatch, rpc } from './tasks-wire.js';

/**
 * MCP tasks through the official requester library (@modelcontextprotocol/ext-tasks) against the
 * running service over HTTP: the official v2 client in the 2026-07-28 era, with the library's
 * session driving the task (polling tasks/get at the suggested interval, answering the
 * confirmation through tasks/update). The extension's own requests go through the host request
 * path the library asks for (rawDispatch), as plain HTTP.
 */
describe('MCP tasks with the official requester library', () => {
  let app: TestApp;
  beforeAll(async () => {
    // A build is confirmed on its caps (5 companies + 20 prospects): below the default threshold.
    app = await startTestApp({
      env: { ...testEnv, MCP_TASK_POLL_INTERVAL_MS: '100', JOB_STEP_DELAY_MS: '150', CONFIRM_ABOVE_CREDITS: '10' },
    });
  });
  afterAll(async () => {
    await app?.stop();
  });

  const filters = {
    companySearchParams: { headquartersCountryCode: ['US'], industriesV2: ['software-development'] },
    prospectSearchParams: { jobTitleV2: { included: ['manager', 'sales'] } },
    maxCompanies: 5,
    maxProspects: 20,
  };

  async function draftAudience(apiKey: string): Promise<string> {
    const created = ok(await app.request('POST', '/v1/audiences/create', { apiKey, name: 'Library audience' }));
    const audienceId = created.body.output.audienceId as string;
    ok(await app.request('PATCH', `/v1/audiences/${audienceId}/search-params`, { apiKey, ...filters }));
    return audienceId;
  }

  async function open(
    apiKey: string,
    surface: string,
    answer: (message: string) => ApplicationElicitResult,
  ): Promise<{ session: TaskEnabledSession; client: Client; asked: string[] }> {
    const url = `${app.url}${surface}`;
    const client = new Client(clientInfo, { versionNegotiation: { mode: { pin: modernRevision } } });
    await client.connect(
      new StreamableHTTPClientTransport(new URL(url), { requestInit: { headers: { 'x-api-key': apiKey } } }),
    );
    const asked: string[] = [];
    const session = createTaskSessionFromClient(client, {
      endpointId: `pds-test${surface}`,
      rawDispatch: rawDispatch(url, apiKey),
      v2RequestFraming: { protocolVersion: modernRevision, clientInfo, clientCapabilities: {} },
      onInputRequest: async (request) => {
        if (request.kind !== 'elicitation') throw new Error(`unexpected ${request.kind} request`);
        const message = String(request.params.message);
        asked.push(message);
        return answer(message) as never;
      },
    });
    return { session, client, asked };
  }

  it('sees the extension, and drives a confirmed build through input_required and working to the status call', async () => {
    const { apiKey } = await app.createAccount({ credits: 10_000 });
    const audienceId = await draftAudience(apiKey);
    const before = await balanceOf(app, apiKey);
    let balanceWhenAsked: number | null = null;
    const { session, client, asked } = await open(apiKey, '/mcp', () => ({
      action: 'accept',
      content: { confirm: true },
    }));
    try {
      expect(session.capabilities.execution).toBe(true);
      const execution = await session.callTool('call_operation', {
        operationId: 'buildAudience',
        payload: { audienceId },
      });
      expect(execution.kind).toBe('task');
      const seen: TaskView[] = [];
      const { outcome } = await execution.settle({
        onEvent: async (event) => {
          if (event.type !== 'task') return;
          seen.push(event.task);
          if (event.task.status === 'input_required' && balanceWhenAsked === null)
            balanceWhenAsked = await balanceOf(app, apiKey);
        },
      });
      // Asked once, with the cost rule; nothing charged while it waited for the answer.
      expect(asked).toHaveLength(1);
      expect(asked[0]).toContain('1 credit per company found plus 1 per prospect found');
      expect(balanceWhenAsked).toBe(before);
      const statuses = seen.map((task) => task.status);
      expect(statuses[0]).toBe('input_required');
      expect(statuses).toContain('working');
      const progress = seen.find(
        (task) => task.status === 'working' && /Building|Waiting/.test(task.statusMessage ?? ''),
      );
      expect(progress?.suggestedPollIntervalMs).toBe(100);

      const result = resultFromTaskOutcome(outcome) as { structuredContent?: unknown; isError?: boolean };
      const status = ok(await app.request('GET', `/v1/audiences/${audienceId}?apiKey=${apiKey}`)).body;
      expect(status.output.status).toBe('NORMAL');
      expect(result.structuredContent).toEqual(status);
      expect(result.isError).toBeUndefined();
      expect(await balanceOf(app, apiKey)).toBe(before - status.output.numCompanies - status.output.numProspects);
    } finally {
      await session.close();
      await client.close();
    }
  });

  it('ends cancelled when the person declines, and nothing is built or charged', async () => {
    const { apiKey } = await app.createAccount({ credits: 10_000 });
    const audienceId = await draftAudience(apiKey);
    const { session, client, asked } = await open(apiKey, '/mcp/v2', () => ({ action: 'decline' }));
    try {
      const execution = await session.callTool('buildAudience', { audienceId });
      const { outcome } = await execution.settle();
      expect(asked).toHaveLength(1);
      expect(outcome.status).toBe('cancelled');
      expect(ok(await app.request('GET', `/v1/audiences/${audienceId}?apiKey=${apiKey}`)).body.output.status).toBe(
        'DRAFT',
      );
      expect(await balanceOf(app, apiKey)).toBe(10_000);
    } finally {
      await session.close();
      await client.close();
    }
  });

  it('reports a failed job as a failed outcome carrying the JSON-RPC error', async () => {
    const { apiKey } = await app.createAccount({ credits: 3 });
    const audienceId = await draftAudience(apiKey);
    const { session, client } = await open(apiKey, '/mcp', () => ({ action: 'accept', content: { confirm: true } }));
    try {
      const execution = await session.callTool('call_operation', {
        operationId: 'buildAudience',
        payload: { audienceId },
      });
      const { outcome } = await execution.settle();
      expect(outcome.status).toBe('failed');
      if (outcome.status !== 'failed') return;
      expect(outcome.error).toBeInstanceOf(TaskFailedError);
      expect(outcome.error.code).toBe(-32603);
      expect(outcome.error.message).toContain('The build failed');
      expect(await balanceOf(app, apiKey)).toBe(3);
    } finally {
      await session.close();
      await client.close();
    }
  });

  it('reads and cancels a task by id through a task controller', async () => {
    const { apiKey } = await app.createAccount({ credits: 10_000 });
    const audienceId = await draftAudience(apiKey);
    const created = await rpc(`${app.url}/mcp`, apiKey, 'tools/call', {
      name: 'call_operation',
      arguments: { operationId: 'buildAudience', payload: { audienceId } },
    });
    const { session, client } = await open(apiKey, '/mcp', () => ({ action: 'decline' }));
    try {
      const controller = session.task(created.result.taskId);
      expect((await controller.snapshot()).status).toBe('input_required');
      await controller.cancel();
      const after = await controller.snapshot();
      expect(after.status).toBe('cancelled');
      expect(after.statusMessage).toContain('nothing was run or charged');
    } finally {
      await session.close();
      await client.close();
    }
  });

  it('gives a plain result where no job starts (a search), with the extension declared', async () => {
    const { apiKey } = await app.createAccount({ credits: 10_000 });
    const { session, client } = await open(apiKey, '/mcp', () => ({ action: 'decline' }));
    try {
      const execution = await session.callTool('call_operation', {
        operationId: 'companySearch',
        payload: { searchParams: { headquartersCountryCode: ['US'] }, pageSize: 2 },
      });
      expect(execution.kind).toBe('immediate');
      const result = resultFromTaskOutcome((await execution.settle()).outcome) as { structuredContent?: any };
      expect(result.structuredContent.output.data).toHaveLength(2);
    } finally {
      await session.close();
      await client.close();
    }
  });
});
