/**
 * What parts of the service report to the metrics collector (src/http/metrics.ts). Defined here,
 * below every surface, so that a part reports through it without knowing who collects.
 */
export interface MetricsRecorder {
  /** One MCP request the direct path answered itself, or read and passed on to the SDK. */
  directPathRequest(outcome: 'answered' | 'passed_on'): void;
  /** One operation the MCP gateway ran in process (no HTTP request of its own), with its answer's status. */
  operationRun(operationId: string, status: number, seconds: number): void;
}
