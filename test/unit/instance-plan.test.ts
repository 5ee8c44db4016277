// How a version's instances and batch size follow from model.json over the
// server's defaults: the decisions README's "Instances, batching and many
// versions" documents.
import { availableParallelism } from 'node:os';
import { describe, expect, it } from 'vitest';
import { planInstances, type ServingDefaults } from '../../src/inference/loaded-model.js';
import { parseModelConfig } from '../../src/inference/model-config.js';

const model = (extra: object = {}) => parseModelConfig({ name: 'm', labels: ['a'], input: { width: 32, height: 32 }, ...extra });

function defaults(overrides: { kind?: 'cpu' | 'gpu'; maxBatchSize?: number } = {}): ServingDefaults {
  return {
    instances: { kind: overrides.kind ?? 'cpu', count: undefined, gpuDevices: [0, 1], intraOpThreads: undefined },
    batching: { maxBatchSize: overrides.maxBatchSize, maxQueueDelayMs: 2, runTimeoutMs: 30_000 },
    executionProviders: ['cuda'],
    pipelineWorkers: 2,
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

  it('batches up to 8 on GPU instances, one instance per device, CPU kept as the fallback provider', () => {
    const plan = planInstances(model(), defaults({ kind: 'gpu' }));
    expect(plan).toMatchObject({ kind: 'gpu', devices: [0, 1], providers: ['cuda', 'cpu'], maxBatchSize: 8 });
  });

  it('takes MAX_BATCH_SIZE over the kind, and model.json over both', () => {
    expect(planInstances(model(), defaults({ maxBatchSize: 4 })).maxBatchSize).toBe(4);
    expect(planInstances(model({ batching: { maxBatchSize: 2 } }), defaults({ kind: 'gpu', maxBatchSize: 4 })).maxBatchSize).toBe(2);
    // a model that asks for GPU instances on a CPU-default server batches as GPU instances do
    expect(planInstances(model({ instances: { kind: 'gpu' } }), defaults()).maxBatchSize).toBe(8);
  });
});
