import { ConfigError, createLogger, loadConfig } from '../api/index.js';
import { startServer } from './host.js';

/** `npm start`: the API on PORT, and the GitHub App when its variables are set. */
async function main(): Promise<void> {
  let config;
  try {
    config = loadConfig();
  } catch (err) {
    if (err instanceof ConfigError) {
      process.stderr.write(`a11y-gate: configuration error: ${err.message}\n`);
      process.exit(78);
    }
    throw err;
  }
  const logger = createLogger(config);
  const running = await startServer({ config, logger });
  logger.info({ url: running.url, database: running.service.ctx.dialect }, 'a11y-gate listening');

  for (const signal of ['SIGTERM', 'SIGINT'] as const) {
    process.once(signal, () => {
      logger.info({ signal }, 'shutting down');
      running.close().then(
        () => process.exit(0),
        (err) => {
          logger.error({ err }, 'shutdown failed');
          process.exit(1);
        },
      );
    });
  }
}

main().catch((err) => {
  process.stderr.write(`a11y-gate: failed to start: ${err instanceof Error ? err.message : String(err)}\n`);
  process.exit(1);
});
