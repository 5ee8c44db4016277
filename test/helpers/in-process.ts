// The app inside the test process: src/app.ts's startServer on port 0 on
// loopback, with its own data directory and a fresh database copied from
// the template test/helpers/template-database.ts migrated once for the run.
// Real PostgreSQL, real HTTP through uWebSockets.js, the same configuration
// as test/helpers/server.ts gives a child process; no process to spawn, no
// PostgreSQL to start, no migrations to run, so a file of route, validation
// and error tests starts in well under a second. For what a process shows
// (exit codes, signals, its log lines, the start command) use server.ts.
import { randomBytes } from 'node:crypto';
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { inject } from 'vitest';
import { startServer } from '../../src/app.js';
import { loadConfig } from '../../src/config.js';
import { connect } from '../../src/db/database.js';
import { Logger, logSettings } from '../../src/log.js';
import { ADMIN, Api, rememberServerKey, serverSql } from './api.js';
import type { Platform } from './platform.js';
import { removeDir } from './server.js';

export interface InProcessServer {
  url: string;
  port: number;
  dataDir: string;
  /** Stops the app (as SIGTERM does a process) and drops its database. */
  stop(): Promise<void>;
}

/** A fresh database copied from the run's migrated template. */
export async function cloneTemplate(): Promise<{ url: string; drop: () => Promise<void> }> {
  const { adminUrl, template } = inject('templateDatabase');
  const name = `sense_test_${randomBytes(6).toString('hex')}`;
  const admin = connect(adminUrl, 1);
  await admin.unsafe(`CREATE DATABASE ${name} TEMPLATE ${template}`);
  await admin.end();
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    drop: async () => {
      const sql = connect(adminUrl, 1);
      await sql.unsafe(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await sql.end();
    },
  };
}

/**
 * The app on a fresh database, listening on 127.0.0.1 on a free port; `env` as a server process's environment.
 * @public for tests that need a server without startInProcessPlatform's login
 */
export async function startInProcess(
  env: Record<string, string> = {},
  /** another server's database to share, as a replica (not dropped at stop); a fresh copy of the template by default */
  shared?: { databaseUrl: string },
): Promise<InProcessServer & { databaseUrl: string }> {
  const dataDir = await mkdtemp(join(tmpdir(), 'sense-test-'));
  const database = shared ? { url: shared.databaseUrl, drop: async () => {} } : await cloneTemplate();
  const config = loadConfig({
    ...process.env,
    PORT: '0',
    // a Mosquitto may hold 1883 on a developer's machine: MQTT only where a test asks for it, on a free port
    MQTT_PORT: '0',
    HOST: '127.0.0.1',
    DATA_DIR: dataDir,
    MODELS_DIR: '/nonexistent',
    WORKERS: '2',
    // the Open Inference Protocol's listeners only where a test asks for them (never Triton's 8000/8001)
    OIP_HTTP_PORT: '0',
    OIP_GRPC_PORT: '0',
    // the test's own output, not the server's lines; nothing here reads them
    LOG_LEVEL: 'warn',
    // every /v2 answer of every test is checked against its documented schema
    RESPONSE_VALIDATION: 'true',
    ...env,
    DATABASE_URL: database.url,
  });
  const app = await startServer(config, new Logger(logSettings(config))).catch(async (error: unknown) => {
    await database.drop();
    await removeDir(dataDir);
    throw error;
  });
  return {
    url: `http://127.0.0.1:${app.port}`,
    port: app.port,
    dataDir,
    databaseUrl: database.url,
    stop: async () => {
      await app.stop();
      await database.drop();
      await removeDir(dataDir);
    },
  };
}

export type InProcessPlatform = Omit<Platform, 'server' | 'database'> & {
  server: InProcessServer & { databaseUrl: string };
};

/** startPlatform's set-up in process: the app without models, the bootstrap admin logged in. */
export async function startInProcessPlatform(env: Record<string, string> = {}): Promise<InProcessPlatform> {
  const server = await startInProcess({ ADMIN_PASSWORD: ADMIN.password, ...env });
  const sql = await serverSql(server, server.databaseUrl);
  rememberServerKey(sql, server.dataDir);
  const anon = new Api(server.url);
  return { server, sql, anon, admin: await anon.login(ADMIN.email, ADMIN.password) };
}

export async function stopInProcessPlatform(
  platform: Partial<Pick<InProcessPlatform, 'sql'>> & { server?: InProcessServer | undefined },
): Promise<void> {
  await platform.sql?.end();
  await platform.server?.stop();
}
