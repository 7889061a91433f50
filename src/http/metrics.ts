import { timingSafeEqual } from 'node:crypto';
import type express from 'express';
import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';
import { bearerTokenOf } from '../auth/bearer.js';
import type { Config } from '../config.js';
import type { Database } from '../store/db.js';

/**
 * Prometheus metrics at GET /metrics, for operators: requests by route (the operationId, or the
 * fixed path of an MCP surface or document) and status, their latency, the MCP direct path's
 * share, the operations the MCP gateway ran in process, the job queue and the database pool, and the process itself. Off (nothing collected,
 * no route) unless METRICS_TOKEN is set; then the scraper sends it as a bearer token: request
 * volumes are not for the public. One registry per service instance, so that several in one
 * process keep apart.
 */

/**
 * What the MCP surfaces report to the metrics collector below: an interface, so that a part
 * reports through it without knowing who collects (or whether metrics are on at all).
 */
export interface MetricsRecorder {
  /** One MCP request the direct path answered itself, or read and passed on to the SDK. */
  directPathRequest(outcome: 'answered' | 'passed_on'): void;
  /** One operation the MCP gateway ran in process (no HTTP request of its own), with its answer's status. */
  operationRun(operationId: string, status: number, seconds: number): void;
}

export interface ServiceMetrics extends MetricsRecorder {
  registry: Registry;
  observeRequest(route: string, method: string, status: number, seconds: number): void;
}

export function createMetrics(context: { db: Database }): ServiceMetrics {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry, prefix: 'pds_' });
  const requests = new Counter({
    name: 'pds_http_requests_total',
    help: 'HTTP requests answered, by route (operationId or fixed path), method and status.',
    labelNames: ['route', 'method', 'status'] as const,
    registers: [registry],
  });
  const durations = new Histogram({
    name: 'pds_http_request_duration_seconds',
    help: "Time from a request's arrival to the end of its answer, by route.",
    labelNames: ['route'] as const,
    buckets: [0.002, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5],
    registers: [registry],
  });
  const directPath = new Gauge({
    name: 'pds_mcp_direct_path_requests',
    help: 'MCP requests the direct path answered, and those it read and passed on to the SDK, since start (this service).',
    labelNames: ['outcome'] as const,
    registers: [registry],
  });
  const operationRuns = new Counter({
    name: 'pds_mcp_operations_total',
    help: 'Operations the MCP gateway ran in process, by operationId and the status their answer would have on REST.',
    labelNames: ['operation', 'status'] as const,
    registers: [registry],
  });
  const operationDurations = new Histogram({
    name: 'pds_mcp_operation_duration_seconds',
    help: 'Time the MCP gateway took to run an operation in process, by operationId.',
    labelNames: ['operation'] as const,
    buckets: [0.002, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5],
    registers: [registry],
  });
  directPath.set({ outcome: 'answered' }, 0);
  directPath.set({ outcome: 'passed_on' }, 0);
  new Gauge({
    name: 'pds_jobs',
    help: 'Jobs waiting or running, by kind and status (all instances: read from the database).',
    labelNames: ['kind', 'status'] as const,
    registers: [registry],
    async collect() {
      this.reset();
      const rows = await context.db.pool.query<{ kind: string; status: string; n: number }>(
        "SELECT kind, status, count(*)::int AS n FROM jobs WHERE status IN ('queued', 'running') GROUP BY kind, status",
      );
      for (const row of rows.rows) this.set({ kind: row.kind, status: row.status }, row.n);
    },
  });
  new Gauge({
    name: 'pds_db_pool_connections',
    help: "Connections of this process's database pool: open, idle, and requests waiting for one.",
    labelNames: ['state'] as const,
    registers: [registry],
    collect() {
      const { pool } = context.db;
      this.set({ state: 'open' }, pool.totalCount);
      this.set({ state: 'idle' }, pool.idleCount);
      this.set({ state: 'waiting' }, pool.waitingCount);
    },
  });
  return {
    registry,
    observeRequest(route, method, status, seconds) {
      requests.inc({ route, method, status: String(status) });
      durations.observe({ route }, seconds);
    },
    directPathRequest(outcome) {
      directPath.inc({ outcome });
    },
    operationRun(operationId, status, seconds) {
      operationRuns.inc({ operation: operationId, status: String(status) });
      operationDurations.observe({ operation: operationId }, seconds);
    },
  };
}

function sameSecret(given: string, expected: string): boolean {
  const a = Buffer.from(given);
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b);
}

/** Collects metrics and serves them at /metrics when METRICS_TOKEN is set; does nothing otherwise. */
export function mountMetrics(
  app: express.Express,
  context: { config: Pick<Config, 'METRICS_TOKEN'>; services: { metrics: ServiceMetrics | null } },
): void {
  const token = context.config.METRICS_TOKEN;
  const metrics = context.services.metrics;
  if (!token || !metrics) return;
  app.get('/metrics', async (req, res, next) => {
    try {
      const given = bearerTokenOf(req.header('authorization'));
      if (!given || !sameSecret(given, token)) {
        res.setHeader('WWW-Authenticate', 'Bearer realm="metrics"');
        res.status(401).json({
          error: {
            code: 'unauthorized',
            message: 'Send METRICS_TOKEN as a bearer token.',
            requestId: res.locals.requestId,
          },
        });
        return;
      }
      res.type(metrics.registry.contentType).send(await metrics.registry.metrics());
    } catch (error) {
      next(error);
    }
  });
}
