import { randomBytes } from 'node:crypto';
import { ProtocolError, ProtocolErrorCode } from '@modelcontextprotocol/server';
import type { AnyOperation } from '../../operations/define.js';
import { findOperation } from '../../operations/index.js';
import type { Logger } from '../log.js';
import { prepareCall, type OperationError, type PreparedCall } from '../runner/run-operation.js';
import type { Backend, Caller } from './backend.js';
import type { Envelope } from './guards/response-size.js';
import { backendUnreachable, operationError, spendScopeRequired, summaryLine } from './messages.js';
import { toolResult } from './results.js';
import { wireTask, type TaskRow, type TaskStore, type WireTask } from './task-store.js';

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
