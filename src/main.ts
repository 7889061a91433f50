import { ConfigError, loadConfig } from './config.js';
import { createLogger } from './log.js';
import { startService } from './service.js';
import { isLoopbackHost } from './loopback.js';

/** `npm start`: serve until SIGINT or SIGTERM, then stop in order. */
async function main(): Promise<void> {
  let config;
  try {
    config = loadConfig(withNewcomerDefaults(process.env));
  } catch (error) {
    if (error instanceof ConfigError) {
      process.stderr.write(`${error.message}\n`);
      process.exit(2);
    }
    throw error;
  }
  const log = createLogger(config.LOG_LEVEL);
  const service = await startService(config, { log, interactive: true });
  const key = service.demoApiKey;
  process.stdout.write(
    [
      '',
      `Prospecting Data Service is listening on ${service.url}`,
      `  REST API     ${service.url}/v1   (OpenAPI: ${service.url}/openapi.json)`,
      `  MCP          ${service.url}/mcp  ${service.url}/mcp/v2  ${service.url}/mcp/v3`,
      `  Rules        ${service.url}/llms.txt`,
      `  Dashboard    ${service.url}/dashboard   (sign up, API keys, usage${config.OIDC_DEV_PROVIDER ? '; built-in development sign-in' : ''})`,
      key ? `  Demo API key ${key}` : '  Demo API key: set DEMO_API_KEY, or use the key printed on the first start',
      '',
      `Try: curl -s -H 'x-api-key: ${key ?? '<API_KEY>'}' ${service.url}/v1/credits`,
      '',
    ].join('\n'),
  );
  let shuttingDown = false;
  const shutdown = (signal: string) => {
    if (shuttingDown) return;
    shuttingDown = true;
    log.info({ signal }, 'shutting down');
    const forced = setTimeout(() => process.exit(1), 30_000);
    forced.unref();
    service.stop().then(
      () => process.exit(0),
      (error: unknown) => {
        log.error({ err: error }, 'error during shutdown');
        process.exit(1);
      },
    );
  };
  process.on('SIGINT', () => shutdown('SIGINT'));
  process.on('SIGTERM', () => shutdown('SIGTERM'));
}

/**
 * A newcomer's `npm start` serves only this machine: the built-in development identity provider
 * is turned on there, so that /dashboard can be signed in to at once (as the demo person, or as
 * any address typed in). Not when single sign-on is configured, on any other address, in
 * production, or when OIDC_DEV_PROVIDER is set either way.
 */
function withNewcomerDefaults(env: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  const host = env.HOST || '127.0.0.1';
  const publicHost = env.PUBLIC_URL && URL.canParse(env.PUBLIC_URL) ? new URL(env.PUBLIC_URL).hostname : null;
  const loopbackOnly = isLoopbackHost(host) && (publicHost === null || isLoopbackHost(publicHost));
  if (env.OIDC_DEV_PROVIDER || env.OIDC_ISSUER || env.NODE_ENV === 'production' || !loopbackOnly) return env;
  return { ...env, OIDC_DEV_PROVIDER: 'true' };
}

main().catch((error: unknown) => {
  process.stderr.write(`Failed to start: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  process.exit(1);
});
