// Entry of a model validation process (model-validation.ts starts it under a
// memory and a time limit): loads one model version on the CPU with one
// ONNX Runtime thread, runs the warm-up the instances will run, and prints
// one JSON line (ValidationReport) on stdout, after a WarmUpLine as each
// warm-up run begins and ends, with its time (model-validation.ts limits each run
// by the first one's). The model.json config comes
// on stdin. A model that asks for more memory than the limit fails here,
// in this process, instead of in the server.
import { Worker } from 'node:worker_threads';
import { serializeError, type ErrorEnvelope } from '../../errors.js';
import { Logger, type LogSettings } from '../../log.js';
import { ModelBackend, type WarmUpEvent } from '../instances/backend.js';
import { outOfMemory } from '../instances/limited-process.js';
import type { ModelConfig } from './model-config.js';
import type { PreparationOptions } from '../instances/prepared-model.js';

export interface ValidationRequest {
  directory: string;
  config: ModelConfig;
  maxBatchSize: number;
  /** the version's preparation, cached where its instances will find it */
  preparation: PreparationOptions;
  /** the server's log settings, which this process logs with */
  log: LogSettings;
}

/** printed as each warm-up run begins (the first once the session is created) and ends: each run has a limit of its own */
export interface WarmUpLine {
  warmUp: WarmUpEvent;
}

export type ValidationReport =
  | { ok: true; maxRssBytes: number }
  | { ok: false; error: ErrorEnvelope; maxRssBytes: number };

/** How often the watchdog looks for the server. */
const WATCHDOG_MS = 250;

/**
 * Ends this process when the server that started it is gone. The server
 * kills a validation past its time, but a server killed with SIGKILL
 * cannot, and a model that loops would run on for nobody, a core taken. A
 * warm-up run holds this thread inside ONNX Runtime, so the watch is a
 * thread of its own: it compares the parent process id with the server's
 * (a process whose parent died is handed to another) and kills this
 * process when they differ.
 */
function watchServer(): void {
  const watchdog = new Worker(
    `const { workerData } = require('node:worker_threads');
     setInterval(() => { if (process.ppid !== workerData.server) process.kill(process.pid, 'SIGKILL'); }, workerData.ms);`,
    { eval: true, workerData: { server: process.ppid, ms: WATCHDOG_MS } },
  );
  watchdog.unref();
}

async function readStdin(): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

function report(value: ValidationReport): Promise<void> {
  return new Promise((resolve) => process.stdout.write(`${JSON.stringify(value)}\n`, () => resolve()));
}

/** peak resident memory of this process so far (ru_maxrss, in KiB) */
const maxRssBytes = () => process.resourceUsage().maxRSS * 1024;

async function main(): Promise<number> {
  watchServer();
  const { directory, config, maxBatchSize, preparation, log } = JSON.parse(await readStdin()) as ValidationRequest;
  let backend: ModelBackend;
  try {
    const onWarmUp = (event: WarmUpEvent) =>
      process.stdout.write(`${JSON.stringify({ warmUp: event } satisfies WarmUpLine)}\n`);
    backend = await ModelBackend.load(
      directory,
      config,
      {
        providers: ['cpu'],
        deviceId: 0,
        intraOpThreads: 1,
        maxBatchSize,
        preparation,
        onWarmUp,
      },
      new Logger(log),
    );
  } catch (error) {
    await report({ ok: false, error: serializeError(outOfMemory(error)), maxRssBytes: maxRssBytes() });
    return 1;
  }
  await backend.release();
  await report({ ok: true, maxRssBytes: maxRssBytes() });
  return 0;
}

main().then(
  (code) => process.exit(code),
  (error: Error) => {
    process.stderr.write(`validation failed: ${error.stack ?? error.message}\n`);
    process.exit(1);
  },
);
