// The inference service with no database: its VersionRegistry port
// (src/inference/versions/version-registry.ts) kept in memory, its model store empty,
// the bundled demo model served from models/demo. A version registered
// later is heard of, validated (in its limited child process), loaded,
// reported Active to the registry, and answers a prediction; a deleted one
// is taken down.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.js';
import { BodyBudget } from '../../src/lib/body-budget.js';
import { bufferedBody, PredictAdmission } from '../../src/inference/scheduling/admission.js';
import { engineSettings, InferenceEngine } from '../../src/inference/inference-engine.js';
import { readModelConfig } from '../../src/inference/versions/model-config.js';
import { ModelFiles, type ModelStore } from '../../src/inference/versions/model-store.js';
import { predictOptions } from '../../src/inference/predict-options.js';
import { InferenceService } from '../../src/inference/inference-service.js';
import { modelValidationSettings } from '../../src/inference/versions/model-validation.js';
import type {
  RegisteredVersion,
  VersionChange,
  VersionRegistry,
  VersionStatus,
} from '../../src/inference/versions/version-registry.js';
import { createServerMetrics, Registry } from '../../src/observability/metrics.js';
import { makeImage } from '../helpers/images.js';
import { testLog } from '../helpers/log.js';

const DEMO = resolve(import.meta.dirname, '../../models/demo');
const REPLICA = 'replica-1';

/** The registry in memory: versions by id, each status reported, changes told to subscribers at once. */
class MemoryVersionRegistry implements VersionRegistry {
  readonly versions = new Map<string, RegisteredVersion>();
  /** every status report, in order */
  readonly reports: Array<{ replicaId: string; versionId: string; status: VersionStatus; reason: string | null }> = [];
  private readonly subscribers = new Set<(change: VersionChange) => void>();

  add(version: RegisteredVersion): void {
    this.versions.set(version.id, version);
    this.tell({ id: version.id, deleted: false });
  }

  delete(id: string): void {
    this.versions.delete(id);
    this.tell({ id, deleted: true });
  }

  /** the last status reported for a version on a replica */
  statusOf(versionId: string, replicaId = REPLICA): VersionStatus | undefined {
    return this.reports.findLast((r) => r.versionId === versionId && r.replicaId === replicaId)?.status;
  }

  private tell(change: VersionChange): void {
    for (const subscriber of this.subscribers) subscriber(change);
  }

  async list(): Promise<RegisteredVersion[]> {
    return [...this.versions.values()];
  }

  async find(id: string): Promise<RegisteredVersion | undefined> {
    return this.versions.get(id);
  }

  async recordStatus(
    replicaId: string,
    versionId: string,
    status: VersionStatus,
    reason: string | null,
  ): Promise<void> {
    if (!this.versions.has(versionId)) return; // as the database's: a deleted version's report finds no row
    this.reports.push({ replicaId, versionId, status, reason });
    this.versions.set(versionId, { ...this.versions.get(versionId)!, status });
  }

  async subscribe(onChange: (change: VersionChange) => void): Promise<() => Promise<void>> {
    this.subscribers.add(onChange);
    return async () => void this.subscribers.delete(onChange);
  }
}

/** A store that holds nothing: every version is a bundled model, loaded from where it was registered. */
const emptyStore: ModelStore = {
  put: async () => {},
  fetch: async () => false,
  has: async () => false,
  remove: async () => {},
};

async function until(check: () => boolean, timeoutMs: number, what: string): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

describe('inference service on an in-memory version registry', () => {
  let dataDir: string;
  let engine: InferenceEngine;
  let service: InferenceService;
  const registry = new MemoryVersionRegistry();

  beforeAll(async () => {
    dataDir = await mkdtemp(join(tmpdir(), 'inference-registry-'));
    // One pipeline worker and one instance: the smallest server.
    const config = loadConfig({ WORKERS: '1', INSTANCE_COUNT: '1', INTRA_OP_THREADS: '1', DATA_DIR: dataDir });
    engine = new InferenceEngine(engineSettings(config), testLog);
    service = new InferenceService(
      registry,
      engine,
      new ModelFiles(emptyStore, dataDir, testLog),
      {
        loading: 'eager',
        isolation: 'none',
        validation: modelValidationSettings(config),
        replicaId: REPLICA,
      },
      createServerMetrics(),
      testLog,
    );
    await service.start();
  });

  afterAll(async () => {
    await service?.stop();
    await engine?.close();
    if (dataDir) await rm(dataDir, { recursive: true, force: true });
  });

  it('starts with no versions and none active', () => {
    expect(service.modelReadiness()).toBe('none-active');
  });

  // A first load: validation in a child process, then the load here (about 20 s on two busy cores).
  it('deploys a registered version, reports it Active, and predicts with it', { timeout: 180_000 }, async () => {
    const config = await readModelConfig(DEMO);
    registry.add({
      id: 'demo-1',
      modelId: 'demo',
      organizationId: 'org-1',
      directory: DEMO,
      config,
      public: false,
      status: 'Initializing',
    });

    await until(
      () => registry.statusOf('demo-1') === 'Active' || registry.statusOf('demo-1') === 'Failed',
      150_000,
      'demo-1 to leave Initializing',
    );
    expect(
      registry.reports.filter((r) => r.versionId === 'demo-1').map((r) => [r.replicaId, r.status, r.reason]),
    ).toEqual([
      [REPLICA, 'Initializing', null],
      [REPLICA, 'Active', null],
    ]);
    expect(registry.versions.get('demo-1')?.status).toBe('Active');
    expect(service.modelReadiness()).toBe('ok');

    // As the predict route does, through the admission gates: admit, a pass, then its run (a body already read).
    const admission = new PredictAdmission(
      service,
      new BodyBudget(1024 * 1024),
      { organizationRequests: 8, places: 4, waitingRoom: 4, holdMs: 1000 },
      new Registry(),
    );
    expect(() => admission.admit('demo-1', 'org-2')).toThrow(); // another organization's private version
    const admitted = admission.admit('demo-1', 'org-1');
    const version = admitted.version;
    const image = await makeImage('jpeg', 96, 64);
    const body = new TextEncoder().encode(JSON.stringify({ image: image.toString('base64') }));
    const pass = admission.enter(admitted, body.byteLength);
    expect(pass.state).toBe('ready');
    const answered = await pass.run(
      bufferedBody(body),
      'application/json',
      predictOptions({ threshold: 0.01 }, version.config.defaults),
    );
    expect(pass.state).toBe('done');
    // Detections grouped by label; at so low a threshold the demo finds squares in the pattern's blocks.
    const answer = JSON.parse(answered!.json) as Record<string, Array<{ type: string; score: number }>>;
    const found = Object.entries(answer).flatMap(([label, detections]) => detections.map((d) => ({ label, ...d })));
    expect(found.length).toBeGreaterThan(0);
    for (const detection of found) {
      expect(version.config.labels).toContain(detection.label);
      expect(detection.type).toBe('rectangle');
      expect(detection.score).toBeGreaterThanOrEqual(0.01);
    }
    expect(admission.loadOf('org-1')).toBe(0);
  });

  it('takes down a version deleted from the registry', async () => {
    registry.delete('demo-1');
    await until(
      () => service.get('demo-1') === undefined && engine.models.loadedCount === 0,
      10_000,
      'demo-1 to be undeployed and unloaded',
    );
    expect(() => service.admit('demo-1', 'org-1')).toThrow();
  });
});
