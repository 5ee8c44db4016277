// What the ingestion benchmarks share (ingest.ts, mqtt.ts): devices
// registered over HTTP, events sent as HTTP requests by the raw-socket load
// generator (one keep-alive connection a device), and what a run of events
// cost the servers: the event writers' grouping (events per commit) and the
// CPU per committed event of the servers and their PostgreSQL.
import { buildRequest, runLoad, type LoadResult } from './load-generator.js';
import { sampleCpu, type CpuSample } from './process-cpu.js';
import type { TestServer } from '../test/helpers/server.js';

/** DEVICE_EVENT_RATE where a bench measures ingestion alone: a lease of 100,000 tokens, so nearly no leases. */
export const UNLIMITED_RATE = 1_000_000;

/** The environment that takes the device rate limit out of the way (burst: 2 s of it). */
export function deviceRateEnv(rate: number = UNLIMITED_RATE): {
  DEVICE_EVENT_RATE: string;
  DEVICE_EVENT_BURST: string;
} {
  return { DEVICE_EVENT_RATE: String(rate), DEVICE_EVENT_BURST: String(rate * 2) };
}

export interface RegisteredDevice {
  token: string;
  deviceId: string;
}

/** Registrations in flight at once: enough to register thousands in seconds, few enough not to flood the server. */
const REGISTRATION_CONCURRENCY = 8;

/** `count` devices registered with the channel key `apiKey`; device i with (and later sending to) server i mod n. */
export async function registerDevices(urls: string[], apiKey: string, count: number): Promise<RegisteredDevice[]> {
  const registered = new Array<RegisteredDevice>(count);
  let next = 0;
  const worker = async () => {
    for (let d = next++; d < count; d = next++) {
      const res = await fetch(`${urls[d % urls.length]!}/v1/registration`, {
        method: 'POST',
        body: JSON.stringify({ apiKey }),
      });
      if (res.status !== 200) throw new Error(`registration: ${res.status} ${await res.text()}`);
      registered[d] = (await res.json()) as RegisteredDevice;
    }
  };
  await Promise.all(Array.from({ length: Math.min(REGISTRATION_CONCURRENCY, count) }, worker));
  return registered;
}

/** One request a device: `body` to `path` with the device's token. */
export function eventRequests(tokens: string[], path: string, contentType: string, body: Buffer): Buffer[] {
  return tokens.map((token) =>
    buildRequest('POST', path, { Authorization: `Bearer ${token}`, 'Content-Type': contentType }, body),
  );
}

/** The event writers' counters, from every server's /metrics: events per transaction shows how well commits are grouped. */
async function writerCounters(servers: TestServer[]): Promise<{ commits: number; events: number }> {
  let commits = 0;
  let events = 0;
  for (const server of servers) {
    const text = await (await fetch(`${server.url}/metrics`)).text();
    const value = (name: string) => Number(new RegExp(`^${name} (\\S+)$`, 'm').exec(text)?.[1]);
    commits += value('ingest_commits_total');
    events += value('ingest_events_total');
  }
  return { commits, events };
}

/** CPU of every server (PostgreSQL runs below the first); undefined where /proc is not readable. */
function serversCpu(servers: TestServer[]): CpuSample | undefined {
  const samples = servers.map((s) => sampleCpu(s.process.pid!));
  if (samples.some((s) => !s)) return undefined;
  return {
    server: samples.reduce((n, s) => n + s!.server, 0),
    database: samples.reduce((n, s) => n + s!.database, 0),
    ffmpeg: samples.reduce((n, s) => n + s!.ffmpeg, 0),
  };
}

/** What a run of events cost the servers. */
export interface CommitCost {
  /** events committed during the run (warm-up included) */
  events: number;
  /** events per transaction of the group commit */
  eventsPerCommit: number;
  /** CPU µs per committed event of the servers and of PostgreSQL */
  cpu: CpuSample | undefined;
}

/** `run`, with what it cost the servers: their writers' counters and CPU before and after it. */
export async function withCommitCost<T>(servers: TestServer[], run: () => Promise<T>): Promise<T & CommitCost> {
  const commitsBefore = await writerCounters(servers);
  const cpuBefore = serversCpu(servers);
  const result = await run();
  const cpuAfter = serversCpu(servers);
  const commitsAfter = await writerCounters(servers);
  const events = commitsAfter.events - commitsBefore.events;
  const perEvent = (seconds: number) => (seconds * 1e6) / events;
  return {
    ...result,
    events,
    eventsPerCommit: events / (commitsAfter.commits - commitsBefore.commits),
    cpu:
      cpuBefore && cpuAfter
        ? {
            server: perEvent(cpuAfter.server - cpuBefore.server),
            database: perEvent(cpuAfter.database - cpuBefore.database),
            ffmpeg: perEvent(cpuAfter.ffmpeg - cpuBefore.ffmpeg),
          }
        : undefined,
  };
}

/** One closed-loop or paced run of event requests, with what it cost the servers. */
export type EventRun = LoadResult & CommitCost;

export interface EventLoad {
  servers: TestServer[];
  /** one request a connection (eventRequests), connection i to server i mod n */
  requests: Buffer[];
  durationMs: number;
  warmupMs: number;
  /** requests/s offered on a fixed schedule; closed loop when absent */
  rate?: number;
}

/** The devices' requests, one keep-alive connection each, closed loop or paced. */
export function measureEventLoad({ servers, requests, durationMs, warmupMs, rate }: EventLoad): Promise<EventRun> {
  return withCommitCost(servers, async () => {
    const run = await runLoad({
      host: '127.0.0.1',
      port: servers.map((s) => s.port),
      request: requests,
      connections: requests.length,
      durationMs,
      warmupMs,
      rate,
    });
    // the last commits' counters and CPU settle before they are read
    await new Promise((resolve) => setTimeout(resolve, 200));
    return run;
  });
}
