import { catalog } from '../src/mcp/catalog.js';

/**
 * One start of the ranker, in a fresh process (bench/ranker.ts runs this several times): importing search_endpoints'
 * module and reading the model, after the registry and the MCP catalog, which the server loads whatever it serves.
 * Prints one line of JSON: wall and CPU milliseconds, and what stays on the heap and in array buffers after a GC.
 *
 *   node --expose-gc dist/bench/ranker-load.js
 */
const collect = globalThis.gc;
if (!collect || catalog.size === 0) throw new Error('run with node --expose-gc');
collect();
const before = process.memoryUsage();
const cpu = process.cpuUsage();
const started = performance.now();
const { searchEndpoints } = await import('../src/mcp/search.js');
const first = searchEndpoints('how many credits are left', { limit: 1 })[0]?.operationId;
const wallMs = performance.now() - started;
const used = process.cpuUsage(cpu);
collect();
const after = process.memoryUsage();
process.stdout.write(
  `${JSON.stringify({
    wallMs,
    cpuMs: (used.user + used.system) / 1000,
    heapMB: (after.heapUsed - before.heapUsed) / 1e6,
    arrayBuffersMB: (after.arrayBuffers - before.arrayBuffers) / 1e6,
    first,
  })}\n`,
);
