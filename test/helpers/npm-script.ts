// A server started through npm (`npm start`, `npm run start:dist`), as a
// person or a process manager does: npm's own process is the one a signal
// is sent to, the server its child.
import { spawn, type ChildProcess } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { connect } from 'node:net';
import { waitFor } from './server.js';

export interface NpmServer {
  npm: ChildProcess;
  /** the server's process: npm's child */
  serverPid: number;
  port: number;
  stderr: () => string;
  /** npm's exit: code or signal */
  exited: Promise<number | string | null>;
  /** SIGKILLs whatever of npm and the server is left (a test's cleanup) */
  kill(): void;
}

export async function startNpmScript(
  script: string,
  options: { cwd: string; env: Record<string, string> },
): Promise<NpmServer> {
  const npm = spawn('npm', ['run', '--silent', script], {
    cwd: options.cwd,
    env: {
      ...process.env,
      HOST: '127.0.0.1',
      PORT: '0',
      OIP_HTTP_PORT: '0',
      OIP_GRPC_PORT: '0',
      MQTT_PORT: '0',
      LOG_LEVEL: 'info',
      ...options.env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stderr = '';
  npm.stderr!.on('data', (d: Buffer) => (stderr += d.toString()));
  const exited = new Promise<number | string | null>((resolve) =>
    npm.on('exit', (code, signal) => resolve(code ?? signal)),
  );
  const kill = () => {
    for (const pid of [...childProcesses(npm.pid!), npm.pid!]) {
      try {
        process.kill(pid, 'SIGKILL');
      } catch {}
    }
  };
  try {
    const port = Number(
      await waitFor(
        async () => /listening host=\S+ port=(\d+)/.exec(stderr)?.[1],
        120_000,
        `npm run ${script} to listen`,
      ),
    );
    const [serverPid] = childProcesses(npm.pid!);
    if (serverPid === undefined) throw new Error(`npm run ${script} has no child process`);
    return { npm, serverPid, port, stderr: () => stderr, exited, kill };
  } catch (error) {
    kill();
    throw new Error(`${(error as Error).message}; stderr:\n${stderr}`);
  }
}

/** The processes `pid` has started and that are running now (Linux: /proc). */
function childProcesses(pid: number): number[] {
  try {
    return readdirSync(`/proc/${pid}/task`).flatMap((task) =>
      readFileSync(`/proc/${pid}/task/${task}/children`, 'utf8').split(' ').filter(Boolean).map(Number),
    );
  } catch {
    return []; // gone
  }
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/**
 * Whether nothing listens on 127.0.0.1:`port`: a connection is refused. (A
 * bind would also fail while the test's own keep-alive connections to the
 * stopped server are not yet closed on its side, which says nothing about
 * the server.)
 */
function portIsFree(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const probe = connect(port, '127.0.0.1');
    probe.once('connect', () => {
      probe.destroy();
      resolve(false);
    });
    probe.once('error', (error: NodeJS.ErrnoException) => resolve(error.code === 'ECONNREFUSED'));
  });
}

/**
 * SIGINT to npm's own process (not its group, as a terminal's Ctrl-C does):
 * the server must get it, drain and exit, its port free.
 */
export async function expectStopsOnSigintToNpm(
  server: NpmServer,
): Promise<{ npmExit: number | string | null; serverAlive: boolean; portFree: boolean; serverLog: string }> {
  let npmExit: number | string | null = 'still running';
  void server.exited.then((exit) => (npmExit = exit));
  server.npm.kill('SIGINT');
  await waitFor(async () => npmExit !== 'still running', 30_000, 'npm to exit after SIGINT').catch(() => undefined);
  await waitFor(async () => !isAlive(server.serverPid), 30_000, 'the server to exit').catch(() => undefined);
  return {
    npmExit,
    serverAlive: isAlive(server.serverPid),
    portFree: await portIsFree(server.port),
    serverLog: server.stderr(),
  };
}
