// Debian's Mosquitto 2 as a test's own broker: a configuration of its own
// in a temporary directory (one loopback listener on a free port, anonymous
// clients, no persistence), started as a child process and stopped after.
// Broker mode's tests skip without it, except where MOSQUITTO_TESTS_REQUIRED=1
// (.ci/run sets it): there a missing broker fails them.
import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort } from './mqtt.js';
import { waitFor } from './server.js';

const MOSQUITTO = '/usr/sbin/mosquitto';

/** The broker itself is installed (what a benchmark needs; the tests need its clients too). */
export const mosquittoInstalled = existsSync(MOSQUITTO);

const installed = mosquittoInstalled && spawnSync('sh', ['-c', 'command -v mosquitto_pub']).status === 0;

/** The broker tests run: Mosquitto and its clients are installed, or they are required (and fail without). */
export const mosquittoTests = installed || process.env.MOSQUITTO_TESTS_REQUIRED === '1';

export interface Mosquitto {
  port: number;
  /** mqtt://127.0.0.1:<port> */
  url: string;
  /** what the broker wrote, for a failed test's message */
  readonly output: string;
  /** the broker's process, for a benchmark's CPU figures */
  readonly pid: number | undefined;
  stop(): Promise<void>;
}

function accepts(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1');
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });
}

/** `port`: the port of an earlier broker, to start one again where its clients reconnect; a free one otherwise. */
export async function startMosquitto(port?: number): Promise<Mosquitto> {
  const dir = await mkdtemp(join(tmpdir(), 'sense-mosquitto-'));
  port ??= await freePort();
  const config = join(dir, 'mosquitto.conf');
  await writeFile(
    config,
    [
      `listener ${port} 127.0.0.1`,
      'allow_anonymous true',
      'persistence false',
      // a subscriber away (killed, restarting) keeps every message queued for its session, not the first 1000
      'max_queued_messages 0',
      'log_dest stderr',
      '',
    ].join('\n'),
  );
  const child: ChildProcess = spawn(MOSQUITTO, ['-c', config], { stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  let exited = false;
  child.stdout?.on('data', (chunk: Buffer) => {
    output += chunk.toString();
  });
  child.stderr?.on('data', (chunk: Buffer) => {
    output += chunk.toString();
  });
  child.once('exit', () => {
    exited = true;
  });
  child.once('error', (error) => {
    exited = true;
    output += String(error);
  });
  await waitFor(async () => exited || (await accepts(port)), 10_000, 'mosquitto to listen');
  if (exited) throw new Error(`mosquitto did not start: ${output}`);
  return {
    port,
    url: `mqtt://127.0.0.1:${port}`,
    get output() {
      return output;
    },
    pid: child.pid,
    async stop() {
      if (!exited) {
        const gone = new Promise((resolve) => child.once('exit', resolve));
        child.kill('SIGTERM');
        await gone;
      }
      await rm(dir, { recursive: true, force: true });
    },
  };
}
