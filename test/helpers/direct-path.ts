import type { RunningService } from '../../src/service.js';

/** Metrics on for a test service, so that what its MCP direct path did can be read (directPathCounts). */
export const metricsEnv = { METRICS_TOKEN: 'metrics-token-for-the-tests-0123456789' };

/** How many MCP requests a running service's direct path answered and passed on, from its metrics (start it with metricsEnv). */
export async function directPathCounts(service: RunningService): Promise<{ answered: number; passedOn: number }> {
  const gauge = service.context.services.metrics?.registry.getSingleMetric('pds_mcp_direct_path_requests');
  if (!gauge) throw new Error('start the service with METRICS_TOKEN to read what its direct path did');
  const { values } = await gauge.get();
  const of = (outcome: string) => values.find((value) => value.labels.outcome === outcome)?.value ?? 0;
  return { answered: of('answered'), passedOn: of('passed_on') };
}
