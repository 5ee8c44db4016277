// Does an execution provider load and compute the same function as the CPU?
//   node --import tsx bench/gpu/session-check.ts MODEL_DIR PROVIDER...
// For each provider: creates a session as the server does (the provider, then
// CPU for nodes it cannot take), times run() at batch 1 and 8 on random
// input, and compares its output with a CPU session's on the same input by
// ‖out − ref‖ / ‖ref‖ (float32 lands far under 1e-3, TF32 near 3e-4). Prints
// one line per provider; a provider that fails to load prints why.
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import * as ort from 'onnxruntime-node';
import { readModelConfig } from '../../src/inference/versions/model-config.js';

const [modelDir, ...providers] = process.argv.slice(2);
if (!modelDir || providers.length === 0) throw new Error('usage: session-check.ts MODEL_DIR PROVIDER...');
const config = await readModelConfig(modelDir);
const { width, height } = config.input;
const path = join(modelDir, 'model.onnx');

function randomInput(batch: number): ort.Tensor {
  const data = new Float32Array(batch * 3 * width * height);
  for (let i = 0; i < data.length; i++) data[i] = Math.random();
  return new ort.Tensor('float32', data, [batch, 3, height, width]);
}

async function open(provider: string): Promise<ort.InferenceSession> {
  const providers: ort.InferenceSession.ExecutionProviderConfig[] = provider === 'cpu' ? ['cpu'] : [provider, 'cpu'];
  return ort.InferenceSession.create(path, { executionProviders: providers, graphOptimizationLevel: 'all' });
}

async function msPerRun(session: ort.InferenceSession, batch: number, runs: number): Promise<number> {
  const feeds = { [session.inputNames[0]!]: randomInput(batch) };
  for (let i = 0; i < 5; i++) await session.run(feeds); // kernel choice, allocations
  const start = performance.now();
  for (let i = 0; i < runs; i++) await session.run(feeds);
  return (performance.now() - start) / runs;
}

function relativeError(out: Float32Array, ref: Float32Array): number {
  let diff = 0;
  let norm = 0;
  for (let i = 0; i < ref.length; i++) {
    const d = out[i]! - ref[i]!;
    if (Number.isNaN(out[i]!)) return NaN;
    diff += d * d;
    norm += ref[i]! * ref[i]!;
  }
  return Math.sqrt(diff / norm);
}

const cpu = await open('cpu');
const input = { [cpu.inputNames[0]!]: randomInput(2) };
const reference = (await cpu.run(input))[cpu.outputNames[0]!]!.data as Float32Array;
for (const provider of providers) {
  const started = performance.now();
  try {
    const session = await open(provider);
    const createMs = performance.now() - started;
    const out = (await session.run(input))[session.outputNames[0]!]!.data as Float32Array;
    const error = relativeError(out, reference);
    const one = await msPerRun(session, 1, 50);
    const eight = await msPerRun(session, 8, 20);
    console.log(
      `${provider}: loaded in ${createMs.toFixed(0)} ms; relative error vs cpu ${error.toExponential(2)}; ` +
        `batch 1 ${one.toFixed(2)} ms/run (${(1000 / one).toFixed(0)} images/s), batch 8 ${eight.toFixed(2)} ms/run (${((8 * 1000) / eight).toFixed(0)} images/s)`,
    );
    await session.release();
  } catch (error) {
    console.log(
      `${provider}: FAILED after ${(performance.now() - started).toFixed(0)} ms: ${(error as Error).message}`,
    );
  }
}
