import { randomBytes } from 'node:crypto';
import { ProtocolError, ProtocolErrorCode } from '@modelcontextprotocol/server';
import type { AnyOperation } from '../../operations/define.js';
import { findOperation } from '../../operations/index.js';
import type { RetentionTask } from '../job-queue/index.js';
import type { Logger } from '../log.js';
import type { Queryable } from '../store/db.js';
import { prepareCall, type OperationError, type PreparedCall } from '../runner/run-operation.js';
import type { Backend, Caller } from './backend.js';
import type { Envelope } from './guards/response-size.js';
import { backendUnreachable, operationError, spendScopeRequired, summaryLine } from './messages.js';
import { toolResult } from './results.js';

/**
 * MCP tasks (the `io.modelcontextprotocol/tasks` extension of the 2026-07-28 protocol) for the
 * operations that start a background job. A client that declares the extension gets, instead of
 * the start call's answer, a task whose id maps to the job: the task row (PostgreSQL) names the
 * status call that follows the job (the registry's `startsJob`), and `tasks/get` makes that call
 * as the caller and reads where the job stands (the status operation's `jobState`). Nothing lives
 * in one process's memory, so any instance answers, and a restart loses nothing.
 *
 * The credit confirmation of a charged call is the task's `input_required` step: the call is kept,
 * not run, until `tasks/update` brings the person's acceptance; a decline ends the task cancelled.
 * The start runs under the Idempotency-Key `mcp-task:<taskId>`: a start whose instance died half
 * way is run again by the next `tasks/get` and answered from the first run, never charged twice.
 */

export const tasksExtension = 'io.modelcontextprotocol/tasks';

/** Whether a 2026-era request's client capabilities declare the tasks extension. */
export function declaresTasks(clientCapabilities: unknown): boolean {
  const extensions = (clientCapabilities as { extensions?: unknown } | null | undefined)?.extensions;
  if (typeof extensions !== 'object' || extensions === null) return false;
  const declared = (extensions as Record<string, unknown>)[tasksExtension];
  return typeof declared === 'object' && declared !== null && !Array.isArray(declared);
}

/** The status operation that follows a job-starting operation (the registry's `startsJob`), or null. */
export function statusOperationOf(operation: AnyOperation): AnyOperation | null {
  const id = operation.startsJob?.statusOperationId;
  return id ? (findOperation(id) ?? null) : null;
}

export type TaskStatus = 'input_required' | 'working' | 'completed' | 'failed' | 'cancelled';

/** A task as the extension puts it on the wire (tasks/get, and CreateTaskResult with `resultType: "task"`). */
export interface WireTask {
  taskId: string;
  status: TaskStatus;
  statusMessage?: string;
  createdAt: string;
  lastUpdatedAt: string;
  ttlMs: number | null;
  pollIntervalMs: number;
  inputRequests?: Record<string, unknown>;
  result?: Record<string, unknown>;
  error?: Record<string, unknown>;
}

interface TaskRow {
  account_id: number;
  task_id: string;
  operation_id: string;
  fields: Record<string, unknown>;
  status: TaskStatus;
  status_message: string | null;
  input_key: string | null;
  input_request: Record<string, unknown> | null;
  status_operation_id: string | null;
  status_input: Record<string, unknown> | null;
  result: Record<string, unknown> | null;
  error: Record<string, unknown> | null;
  poll_interval_ms: number;
  created_at: Date;
  updated_at: Date;
  expires_at: Date;
  /** Whether expires_at has passed, by the database's clock. */
  expired: boolean;
  /** Seconds since updated_at, by the database's clock. */
  idle_seconds: number;
}

const columns = `account_id, task_id, operation_id, fields, status, status_message, input_key, input_request,
  status_operation_id, status_input, result, error, poll_interval_ms, created_at, updated_at, expires_at,
  expires_at < now() AS expired, EXTRACT(EPOCH FROM (now() - updated_at))::float8 AS idle_seconds`;

/** The task rows, per account. */
export class TaskStore {
  constructor(private readonly db: Queryable) {}

  async insert(task: {
    accountId: number;
    taskId: string;
    operationId: string;
    fields: Record<string, unknown>;
    status: 'input_required' | 'working';
    statusMessage: string;
    inputKey?: string;
    inputRequest?: Record<string, unknown>;
    pollIntervalMs: number;
    ttlSeconds: number;
  }): Promise<TaskRow> {
    const result = await this.db.query<TaskRow>(
      `INSERT INTO mcp_tasks (account_id, task_id, operation_id, fields, status, status_message, input_key, input_request,
                              poll_interval_ms, expires_at)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, now() + make_interval(secs => $10))
       RETURNING ${columns}`,
      [
        task.accountId,
        task.taskId,
        task.operationId,
        JSON.stringify(task.fields),
        task.status,
        task.statusMessage,
        task.inputKey ?? null,
        task.inputRequest ? JSON.stringify(task.inputRequest) : null,
        task.pollIntervalMs,
        task.ttlSeconds,
      ],
    );
    return result.rows[0] as TaskRow;
  }

  async load(accountId: number, taskId: string): Promise<TaskRow | null> {
    const result = await this.db.query<TaskRow>(
      `SELECT ${columns} FROM mcp_tasks WHERE account_id = $1 AND task_id = $2`,
      [accountId, taskId],
    );
    return result.rows[0] ?? null;
  }

  /** Moves an input_required task on with the answer to its question; null when another answer (or a cancel) came first. */
  async answer(
    accountId: number,
    taskId: string,
    inputKey: string,
    next: { status: 'working' | 'cancelled'; statusMessage: string; ttlSeconds: number },
  ): Promise<TaskRow | null> {
    const result = await this.db.query<TaskRow>(
      `UPDATE mcp_tasks SET status = $4, status_message = $5, input_key = NULL, input_request = NULL, updated_at = now(),
              expires_at = created_at + make_interval(secs => $6)
        WHERE account_id = $1 AND task_id = $2 AND status = 'input_required' AND input_key = $3 AND expires_at >= now()
        RETURNING ${columns}`,
      [accountId, taskId, inputKey, next.status, next.statusMessage, next.ttlSeconds],
    );
    return result.rows[0] ?? null;
  }

  /** Records the status call that follows the job, once the start call answered. */
  async started(
    accountId: number,
    taskId: string,
    statusOperationId: string,
    statusInput: Record<string, unknown>,
    statusMessage: string,
  ): Promise<TaskRow | null> {
    const result = await this.db.query<TaskRow>(
      `UPDATE mcp_tasks SET status_operation_id = $3, status_input = $4, status_message = $5, updated_at = now()
        WHERE account_id = $1 AND task_id = $2 AND status = 'working' AND status_input IS NULL
        RETURNING ${columns}`,
      [accountId, taskId, statusOperationId, JSON.stringify(statusInput), statusMessage],
    );
    return result.rows[0] ?? null;
  }

  /** Ends a task; the first terminal state written stands (a later one finds no working row). */
  async finish(
    accountId: number,
    taskId: string,
    end: { status: 'completed' | 'failed' | 'cancelled'; statusMessage: string; result?: unknown; error?: unknown },
  ): Promise<TaskRow | null> {
    const result = await this.db.query<TaskRow>(
      `UPDATE mcp_tasks SET status = $3, status_message = $4, result = $5, error = $6, input_key = NULL,
              input_request = NULL, updated_at = now()
        WHERE account_id = $1 AND task_id = $2 AND status IN ('working', 'input_required')
        RETURNING ${columns}`,
      [
        accountId,
        taskId,
        end.status,
        end.statusMessage,
        end.result === undefined ? null : JSON.stringify(end.result),
        end.error === undefined ? null : JSON.stringify(end.error),
      ],
    );
    return result.rows[0] ?? null;
  }

  /** A start that refused (nothing ran): its task is taken back, and the caller gets the refusal as a tool result. */
  async remove(accountId: number, taskId: string): Promise<void> {
    await this.db.query('DELETE FROM mcp_tasks WHERE account_id = $1 AND task_id = $2', [accountId, taskId]);
  }

  async purgeExpired(): Promise<number> {
    return (await this.db.query('DELETE FROM mcp_tasks WHERE expires_at < now()')).rowCount ?? 0;
  }
}

/** Retention: a task past its time to live is gone (tasks/get then says it expired or is unknown). */
export const taskRetention: RetentionTask = {
  name: 'mcpTasksDeleted',
  sweep: (db) => new TaskStore(db).purgeExpired(),
};

export interface TaskDependencies {
  store: TaskStore;
  backend: Backend;
  log: Logger;
  /** How long a task is kept after it was created. */
  ttlSeconds: number;
  /** How long a question waits for the person's answer (the confirmation's validity). */
  questionTtlSeconds: number;
  /** Replaces the status operations' documented intervals (tests, development); unset: the documented ones. */
  pollIntervalMs?: number | undefined;
}

/** A restart of a start whose instance may have died: only after this long without news. */
const restartAfterSeconds = 10;

const confirmSchema = {
  type: 'object',
  properties: {
    confirm: {
      type: 'boolean',
      title: 'Spend these credits',
      description: 'Yes to run the operation and be charged as stated.',
    },
  },
  required: ['confirm'],
};

export class McpTasks {
  constructor(private readonly deps: TaskDependencies) {}

  /** Whether calls of this operation can answer with a task. */
  supports(operation: AnyOperation): boolean {
    return statusOperationOf(operation) !== null;
  }

  private pollIntervalMs(operation: AnyOperation): number {
    const status = statusOperationOf(operation);
    return this.deps.pollIntervalMs ?? (status?.pollIntervalSeconds ?? 30) * 1000;
  }

  /** A task that waits for the person's word: the call is kept, not run, and nothing is charged until tasks/update accepts. */
  async ask(caller: Caller, operation: AnyOperation, fields: Record<string, unknown>, question: string) {
    const taskId = newTaskId();
    const inputKey = `confirm-${randomBytes(6).toString('base64url')}`;
    const row = await this.deps.store.insert({
      accountId: caller.principal.accountId,
      taskId,
      operationId: operation.operationId,
      fields,
      status: 'input_required',
      statusMessage: `Waiting for the person to confirm the cost of ${operation.operationId}; nothing has run or been charged.`,
      inputKey,
      inputRequest: {
        method: 'elicitation/create',
        params: { mode: 'form', message: question, requestedSchema: confirmSchema },
      },
      pollIntervalMs: Math.min(this.pollIntervalMs(operation), 5_000),
      ttlSeconds: this.deps.questionTtlSeconds,
    });
    return wireTask(row);
  }

  /**
   * Runs the operation under a new task. A refusal (invalid state, too few credits: nothing ran)
   * takes the task back and comes back as the operation's answer, for a plain tool result.
   */
  async start(caller: Caller, call: PreparedCall): Promise<{ task: WireTask } | { refused: OperationError }> {
    const { operation, fields } = call;
    const taskId = newTaskId();
    await this.deps.store.insert({
      accountId: caller.principal.accountId,
      taskId,
      operationId: operation.operationId,
      fields,
      status: 'working',
      statusMessage: `Starting ${operation.operationId}.`,
      pollIntervalMs: this.pollIntervalMs(operation),
      ttlSeconds: this.deps.ttlSeconds,
    });
    const started = await this.runStart(caller, call, taskId);
    if ('refused' in started) {
      await this.deps.store.remove(caller.principal.accountId, taskId);
      return started;
    }
    return { task: wireTask(started.row) };
  }

  /** The start call, keyed by the task so that running it again answers from the first run. */
  private async runStart(
    caller: Caller,
    call: PreparedCall,
    taskId: string,
  ): Promise<{ row: TaskRow } | { refused: OperationError }> {
    const { operation, input } = call;
    const status = statusOperationOf(operation);
    if (!status || !operation.startsJob) throw new Error(`${operation.operationId} starts no job`);
    let outcome;
    try {
      outcome = await this.deps.backend.run(call, caller, { idempotencyKey: `mcp-task:${taskId}` });
    } catch (error) {
      this.deps.log.warn({ err: error, operationId: operation.operationId }, 'task start failed');
      return { refused: backendUnreachable };
    }
    if (!outcome.ok) return { refused: outcome.error };
    const body: Envelope = { output: outcome.output, chargeInfo: outcome.chargeInfo };
    const statusInput = operation.startsJob.statusInput(input, body.output);
    const row =
      (await this.deps.store.started(
        caller.principal.accountId,
        taskId,
        status.operationId,
        statusInput,
        `${summaryLine(operation, body)} Following it with ${status.operationId}.`,
      )) ?? (await this.mustLoad(caller, taskId));
    return { row };
  }

  async get(caller: Caller, taskId: string): Promise<WireTask> {
    const row = await this.mustLoad(caller, taskId);
    if (row.status !== 'working') return wireTask(row);
    return wireTask(await this.refresh(caller, row));
  }

  /** A working task brought up to date from its job: the status call, read through the status operation's jobState. */
  private async refresh(caller: Caller, row: TaskRow): Promise<TaskRow> {
    const operation = findOperation(row.operation_id);
    if (!operation) return row;
    if (!row.status_operation_id || !row.status_input) {
      // The start has not answered yet; when its instance went quiet, run it again (same key, same answer).
      if (row.idle_seconds < restartAfterSeconds) return row;
      const started = await this.startStored(caller, operation, row.task_id, row.fields);
      if ('refused' in started) return this.endRefused(caller, row, operation, started.refused);
      return started.row;
    }
    const status = findOperation(row.status_operation_id);
    if (!status?.jobState) return row;
    const prepared = prepareCall(status, caller.principal, row.status_input);
    let outcome;
    try {
      outcome = prepared.ok
        ? await this.deps.backend.run(prepared.call, caller)
        : { ok: false as const, error: prepared.error };
    } catch (error) {
      this.deps.log.warn({ err: error, operationId: status.operationId }, 'task status call failed');
      return { ...row, status_message: `Could not read ${status.operationId} just now; the job goes on.` };
    }
    if (!outcome.ok && outcome.error.code === 'not_found') {
      // What the job worked on is gone (an audience deleted, say): the job cannot finish.
      return this.end(caller, row, {
        status: 'failed',
        statusMessage: `${status.operationId} no longer finds what this task was following.`,
        error: jsonRpcError(`${status.operationId} answered 404: what the task followed is gone.`, status, {
          output: undefined,
          error: { code: outcome.error.code, message: outcome.error.message, details: outcome.error.details },
        }),
      });
    }
    if (!outcome.ok) {
      return {
        ...row,
        status_message: `Could not read ${status.operationId} just now (${outcome.error.code}); the job goes on.`,
      };
    }
    const body: Envelope = { output: outcome.output, chargeInfo: outcome.chargeInfo };
    const state = status.jobState(body.output);
    if (state.state === 'running') return { ...row, status_message: state.message };
    if (state.state === 'done') {
      return this.end(caller, row, {
        status: 'completed',
        statusMessage: state.message,
        // The tools/call result as a 2026-07-28 answer carries it, discriminator included.
        result: { ...toolResult(`${summaryLine(status, body)} ${state.message}`, { ...body }), resultType: 'complete' },
      });
    }
    return this.end(caller, row, {
      status: 'failed',
      statusMessage: state.message,
      error: jsonRpcError(state.message, status, body),
    });
  }

  private async end(
    caller: Caller,
    row: TaskRow,
    end: { status: 'completed' | 'failed' | 'cancelled'; statusMessage: string; result?: unknown; error?: unknown },
  ): Promise<TaskRow> {
    return (
      (await this.deps.store.finish(caller.principal.accountId, row.task_id, end)) ??
      (await this.mustLoad(caller, row.task_id))
    );
  }

  /** A start refused after the person agreed: the tool's answer, an error result, ends the task completed (as the extension says of tool errors). */
  /** A start of fields kept in a task's row (after the person's word, or again after its instance died): prepared anew. */
  private async startStored(
    caller: Caller,
    operation: AnyOperation,
    taskId: string,
    fields: Record<string, unknown>,
  ): Promise<{ row: TaskRow } | { refused: OperationError }> {
    const prepared = prepareCall(operation, caller.principal, fields);
    if (!prepared.ok) return { refused: prepared.error };
    return this.runStart(caller, prepared.call, taskId);
  }

  private endRefused(caller: Caller, row: TaskRow, operation: AnyOperation, error: OperationError): Promise<TaskRow> {
    const result = operationError(operation, error);
    const text = result.content[0];
    return this.end(caller, row, {
      status: 'completed',
      statusMessage: text?.type === 'text' ? text.text : `${operation.operationId} was refused; nothing was charged.`,
      result: { ...result, resultType: 'complete' },
    });
  }

  /** The person's answer to the task's question: an acceptance runs the call, anything else ends the task cancelled. */
  async update(caller: Caller, taskId: string, inputResponses: Record<string, unknown>): Promise<void> {
    const row = await this.mustLoad(caller, taskId);
    // Answers to keys not outstanding are ignored, as the extension says.
    if (row.status !== 'input_required' || !row.input_key || !(row.input_key in inputResponses)) return;
    const operation = findOperation(row.operation_id);
    if (!operation) return;
    const response = inputResponses[row.input_key] as { action?: unknown; content?: { confirm?: unknown } } | null;
    const accepted = response?.action === 'accept' && response.content?.confirm === true;
    const permitted = accepted ? prepareCall(operation, caller.principal, row.fields) : null;
    if (permitted && !permitted.ok && permitted.refusal === 'credential') {
      const refusal = spendScopeRequired(operation).content[0];
      throw new ProtocolError(
        ProtocolErrorCode.InvalidRequest,
        refusal?.type === 'text' ? refusal.text : 'mcp:spend needed',
      );
    }
    const claimed = await this.deps.store.answer(caller.principal.accountId, taskId, row.input_key, {
      status: accepted ? 'working' : 'cancelled',
      statusMessage: accepted
        ? `Confirmed; starting ${operation.operationId}.`
        : 'The person did not confirm the cost: nothing was run or charged.',
      ttlSeconds: this.deps.ttlSeconds,
    });
    if (!claimed || !accepted) return;
    const started = await this.startStored(caller, operation, taskId, claimed.fields);
    if ('refused' in started) await this.endRefused(caller, claimed, operation, started.refused);
  }

  /**
   * tasks/cancel. A task still waiting for the person's word ends cancelled (nothing ran). A job
   * already running is not stopped: the operations offer no cancel of their own yet (deleting the
   * audience or saved search cancels its jobs), so the ack changes nothing and the task goes on.
   */
  async cancel(caller: Caller, taskId: string): Promise<void> {
    const row = await this.mustLoad(caller, taskId);
    if (row.status !== 'input_required') return;
    await this.deps.store.finish(caller.principal.accountId, taskId, {
      status: 'cancelled',
      statusMessage: 'Cancelled before it ran: nothing was run or charged.',
    });
  }

  private async mustLoad(caller: Caller, taskId: string): Promise<TaskRow> {
    const row = await this.deps.store.load(caller.principal.accountId, taskId);
    if (!row) throw new ProtocolError(ProtocolErrorCode.InvalidParams, 'Failed to retrieve task: Task not found');
    if (row.expired)
      throw new ProtocolError(ProtocolErrorCode.InvalidParams, 'Failed to retrieve task: Task has expired');
    return row;
  }
}

function newTaskId(): string {
  return randomBytes(18).toString('base64url');
}

/** The job's failure as the JSON-RPC error of a failed task: the status call's answer goes in `data`. */
function jsonRpcError(message: string, status: AnyOperation, body: Envelope): Record<string, unknown> {
  return {
    code: ProtocolErrorCode.InternalError,
    message,
    data: {
      operationId: status.operationId,
      ...(body.output !== undefined ? { output: body.output } : { answer: body }),
    },
  };
}

function wireTask(row: TaskRow): WireTask {
  const task: WireTask = {
    taskId: row.task_id,
    status: row.status,
    ...(row.status_message ? { statusMessage: row.status_message } : {}),
    createdAt: row.created_at.toISOString(),
    lastUpdatedAt: row.updated_at.toISOString(),
    ttlMs: Math.max(0, row.expires_at.getTime() - row.created_at.getTime()),
    pollIntervalMs: row.poll_interval_ms,
  };
  if (row.status === 'input_required' && row.input_key && row.input_request)
    task.inputRequests = { [row.input_key]: row.input_request };
  if (row.status === 'completed' && row.result) task.result = row.result;
  if (row.status === 'failed') task.error = row.error ?? { code: ProtocolErrorCode.InternalError, message: 'failed' };
  return task;
}
