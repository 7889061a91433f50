import { ProtocolErrorCode } from '@modelcontextprotocol/server';
import type { RetentionTask } from '../job-queue/index.js';
import type { Queryable } from '../store/db.js';

/** The rows of MCP tasks (mcp_tasks) and their wire form: what any instance reads to answer tasks/get (tasks.ts). */

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

export interface TaskRow {
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

/** A task row as the extension puts it on the wire. */
export function wireTask(row: TaskRow): WireTask {
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
