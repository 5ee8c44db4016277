// How a version's instances and batch size follow from model.json over the
// server's defaults: the decisions docs/MODELS.md's "Instances, batching and
// many versions" documents.
import { availableParallelism } from 'node:os';
import { describe, expect, it } from 'vitest';
import { planInstances, type ServingDefaults } from '../../src/inference/versions/loaded-model.js';
import { parseModelConfig } from '../../src/inference/versions/model-config.js';

const model = (extra: object = {}) =>
  parseModelConfig({ name: 'm', labels: ['a'], input: { width: 32, height: 32 }, ...extra });

function defaults(overrides: { kind?: 'cpu' | 'gpu'; maxBatchSize?: number } = {}): ServingDefaults {
  return {
    instances: {
      kind: overrides.kind ?? 'cpu',
      count: undefined,
      gpuDevices: [0, 1],
      intraOpThreads: undefined,
      runner: 'auto',
      cudaOptions: {},
      pinnedMemory: true,
    },
    batching: { maxBatchSize: overrides.maxBatchSize ?? 1, maxQueueDelayMs: 2, runTimeoutMs: 30_000 },
    graphRewrite: true,
    gpuPrecision: 'fp32',
    instanceMemoryBytes: 2048 * 1024 * 1024,
    executionProviders: ['cuda'],
    workers: 2,
  };
}

describe('planInstances', () => {
  it('runs CPU instances one image at a time unless told, single-threaded, one per core up to 4', () => {
    const plan = planInstances(model(), defaults());
    expect(plan.maxBatchSize).toBe(1);
    expect(plan.kind).toBe('cpu');
    expect(plan.devices).toHaveLength(Math.min(availableParallelism(), 4));
    expect(plan.intraOpThreads).toBe(Math.max(1, Math.floor(availableParallelism() / plan.devices.length)));
    expect(plan.providers).toEqual(['cpu']);
  });

  it('runs two GPU instances per device, one image at a time unless told, CPU kept as the fallback provider', () => {
    const plan = planInstances(model(), defaults({ kind: 'gpu' }));
    expect(plan).toMatchObject({ kind: 'gpu', devices: [0, 1, 0, 1], providers: ['cuda', 'cpu'], maxBatchSize: 1 });
    expect(planInstances(model({ instances: { count: 1 } }), defaults({ kind: 'gpu' })).devices).toEqual([0]);
  });

  it('takes MAX_BATCH_SIZE, and model.json over it', () => {
    expect(planInstances(model(), defaults({ maxBatchSize: 4 })).maxBatchSize).toBe(4);
    expect(
      planInstances(model({ batching: { maxBatchSize: 2 } }), defaults({ kind: 'gpu', maxBatchSize: 4 })).maxBatchSize,
    ).toBe(2);
    expect(planInstances(model({ batching: { maxBatchSize: 8 } }), defaults({ kind: 'gpu' })).maxBatchSize).toBe(8);
  });

  it('pads batches to maxBatchSize on GPU instances only, unless model.json says', () => {
    expect(planInstances(model(), defaults({ kind: 'gpu' })).padToMaxBatchSize).toBe(true);
    expect(planInstances(model(), defaults({ maxBatchSize: 4 })).padToMaxBatchSize).toBe(false);
    expect(
      planInstances(model({ batching: { padToMaxBatchSize: false } }), defaults({ kind: 'gpu' })).padToMaxBatchSize,
    ).toBe(false);
    expect(planInstances(model({ batching: { padToMaxBatchSize: true } }), defaults()).padToMaxBatchSize).toBe(true);
  });
});
