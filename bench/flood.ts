// npm run bench -- flood [--against <checkout>] [--connections 200] [--megabytes 4]
// Memory under a flood of large unauthenticated bodies: `connections`
// clients at once each send a `megabytes` MiB body with a forged device
// token to /v1/mobile/events/batch, then to /v1/registration (which carries
// its key inside the body), as fast as loopback takes them. Reports the
// server's resident memory before and its peak (VmHWM) after each flood,
// and how the requests were answered. With --against, the same flood
// against another checkout (e.g. an older commit in a git worktree with
// node_modules linked), side by side in one run.
import { connect } from 'node:net';
import { parseArgs } from 'node:util';
import { removeDir, ROOT, type TestServer } from '../test/helpers/server.js';
import { startBenchServer } from './bench-server.js';
import { memory } from './process-cpu.js';

const { values } = parseArgs({
  args: process.argv.slice(2).filter((a) => a !== 'flood'),
  options: {
    against: { type: 'string' },
    connections: { type: 'string', default: '200' },
    megabytes: { type: 'string', default: '4' },
  },
});
const connections = Number(values.connections);
const bodyBytes = Number(values.megabytes) * 1024 * 1024;

/** One client: the head, then the body in 64 KiB writes until it is all sent or the server hangs up. */
function client(port: number, path: string): Promise<string> {
  return new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1');
    let answer = '';
    const chunk = Buffer.alloc(64 * 1024, 0x61);
    let sent = 0;
    const pump = () => {
      while (sent < bodyBytes && !socket.destroyed) {
        sent += chunk.length;
        if (!socket.write(chunk)) return void socket.once('drain', pump);
      }
    };
    socket.on('connect', () => {
      socket.write(
        `POST ${path} HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nAuthorization: Bearer forged.device.token\r\nContent-Length: ${bodyBytes}\r\n\r\n`,
      );
      pump();
    });
    socket.on('data', (d) => {
      answer += d;
      if (answer.includes('\r\n\r\n')) socket.destroy();
    });
    socket.on('error', () => {});
    socket.on('close', () => resolve(/^HTTP\/1\.1 (\d+)/.exec(answer)?.[1] ?? 'closed unanswered'));
    socket.setTimeout(60_000, () => socket.destroy());
  });
}

async function flood(server: TestServer, path: string) {
  const before = memory(server.process.pid!);
  const started = Date.now();
  const answers = await Promise.all(Array.from({ length: connections }, () => client(server.port, path)));
  const seconds = (Date.now() - started) / 1000;
  const counts: Record<string, number> = {};
  for (const a of answers) counts[a] = (counts[a] ?? 0) + 1;
  return { path, beforeMiB: before.rss, peakMiB: memory(server.process.pid!).peak, seconds, answers: counts };
}

/** Each route on a fresh server, so each peak is its own. */
async function measure(label: string, cwd: string) {
  const runs = [];
  for (const path of ['/v1/mobile/events/batch', '/v1/registration']) {
    const server = await startBenchServer({ cwd, env: { MODELS_DIR: `${ROOT}/models` } });
    try {
      await new Promise((r) => setTimeout(r, 3000)); // the demo model's load settles
      runs.push(await flood(server, path));
    } finally {
      await server.stop();
      await removeDir(server.dataDir);
    }
  }
  return { label, runs };
}

const results = [await measure('this checkout', ROOT)];
if (values.against) results.unshift(await measure(values.against, values.against));
process.stdout.write(`# Body flood: ${connections} connections x ${values.megabytes} MiB, forged token\n\n`);
process.stdout.write(
  '| server | route | RSS before MiB | peak RSS MiB | seconds | answers |\n|---|---|---|---|---|---|\n',
);
for (const { label, runs } of results) {
  for (const r of runs) {
    const answers = Object.entries(r.answers)
      .map(([k, v]) => `${k}: ${v}`)
      .join(', ');
    process.stdout.write(
      `| ${label} | ${r.path} | ${r.beforeMiB.toFixed(0)} | ${r.peakMiB.toFixed(0)} | ${r.seconds.toFixed(1)} | ${answers} |\n`,
    );
  }
}
