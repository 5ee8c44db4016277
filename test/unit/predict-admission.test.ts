// The predict admission state machine (src/inference/admission.ts) on its
// own, no server: the real VersionQueue and BodyBudget, a backend that
// knows two versions and answers a prediction when the test says so.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { DomainError } from '../../src/errors.js';
import { PredictAdmission, type AdmissionBackend } from '../../src/inference/admission.js';
import { predictErrors } from '../../src/inference/predict-errors.js';
import { predictOptions } from '../../src/inference/predict-options.js';
import { VersionQueue } from '../../src/inference/version-queue.js';
import { BodyBudget } from '../../src/lib/body-budget.js';

interface TestVersion {
  id: string;
  queue: VersionQueue;
}

const options = predictOptions({}, { threshold: 0.5, iou: 0.45, maxDetections: 100 } as never);

/** Versions with `places` places and `waitingRoom` held requests each; runs resolve when the test calls finish(). */
function setup({ places = 1, waitingRoom = 1, organizationRequests = 4, budgetBytes = 1000, holdMs = 1000 } = {}) {
  const queue = () => new VersionQueue({ places, waitingRoom, holdMs }, () => predictErrors.overloaded('v', 1));
  const versions = new Map<string, TestVersion>([
    ['a', { id: 'a', queue: queue() }],
    ['b', { id: 'b', queue: queue() }],
  ]);
  const runs: Array<{ version: string; body: Uint8Array; finish: (json: string) => void }> = [];
  const backend: AdmissionBackend<TestVersion> = {
    admit(id) {
      const version = versions.get(id);
      if (!version) throw predictErrors.versionNotFound();
      return version;
    },
    predict(version, _organizationId, body) {
      return new Promise((finish) => runs.push({ version: version.id, body, finish }));
    },
  };
  const budget = new BodyBudget(budgetBytes);
  const admission = new PredictAdmission(backend, budget, { organizationRequests, holdMs });
  return { admission, budget, versions, runs };
}

/** Lets settled promises' continuations run. */
const settle = () => new Promise<void>((next) => setImmediate(next));

afterEach(() => vi.useRealTimers());

describe('predict admission', () => {
  it('refuses an unknown version at the first gate, holding nothing', () => {
    const { admission, budget } = setup();
    expect(() => admission.admit('nope', 'org-1')).toThrow(expect.objectContaining({ kind: 'not-found' }));
    expect(admission.loadOf('org-1')).toBe(0);
    expect(budget.inUse).toBe(0);
  });

  it('admit → ready → running → done → released, giving back the place, the share and the memory', async () => {
    const { admission, budget, versions, runs } = setup();
    const pass = admission.admit('a', 'org-1').enter(100);
    expect(pass.state).toBe('ready');
    expect([admission.loadOf('org-1'), versions.get('a')!.queue.inFlight, budget.inUse]).toEqual([1, 1, 100]);

    const body = new Uint8Array([1, 2, 3]);
    const answer = pass.run(body, 'image/jpeg', options);
    expect(pass.state).toBe('running');
    expect(runs.map((r) => [r.version, r.body])).toEqual([['a', body]]);
    runs[0]!.finish('{"cat":[]}');
    expect(await answer).toBe('{"cat":[]}');
    expect(pass.state).toBe('done');

    pass.release();
    expect(pass.state).toBe('released');
    expect([admission.loadOf('org-1'), versions.get('a')!.queue.inFlight, budget.inUse]).toEqual([0, 0, 0]);
  });

  it('runs only a ready pass', () => {
    const { admission } = setup();
    admission.admit('a', 'org-1').enter(10);
    const held = admission.admit('a', 'org-1').enter(10);
    expect(held.state).toBe('held');
    expect(() => held.run(new Uint8Array(1), 'image/jpeg', options)).toThrow(/run\(\) in state held/);
  });

  it("refuses past the organization's share of the server, all versions together, before taking a queue place", () => {
    const { admission, versions } = setup({ places: 4, organizationRequests: 2 });
    const first = admission.admit('a', 'org-1').enter(1);
    admission.admit('b', 'org-1').enter(1);
    let refusal: unknown;
    try {
      admission.admit('a', 'org-1').enter(1);
    } catch (error) {
      refusal = error;
    }
    expect(refusal).toBeInstanceOf(DomainError);
    expect(refusal).toMatchObject({ kind: 'unavailable', retryAfterSeconds: 1 });
    expect((refusal as DomainError).detail).toMatch(/ORGANIZATION_QUEUE_SIZE/);
    expect(versions.get('a')!.queue.inFlight).toBe(1);
    // Another organization is not held back by it.
    expect(admission.admit('a', 'org-2').enter(1).state).toBe('ready');
    first.release();
    expect(admission.admit('a', 'org-1').enter(1).state).toBe('ready');
  });

  it('holds a request without a place, with no body memory, until a place frees', async () => {
    const { admission, budget } = setup();
    const first = admission.admit('a', 'org-1').enter(100);
    const second = admission.admit('a', 'org-2').enter(100);
    expect(second.state).toBe('held');
    expect(budget.inUse).toBe(100);

    const turn = second.wait();
    first.release();
    expect(await turn).toBeUndefined();
    expect(second.state).toBe('ready');
    expect(budget.inUse).toBe(100);
    second.release();
    expect(budget.inUse).toBe(0);
  });

  it('refuses with the queue error when the waiting room is full too', () => {
    const { admission } = setup({ places: 1, waitingRoom: 1 });
    admission.admit('a', 'org-1').enter(1);
    admission.admit('a', 'org-1').enter(1);
    expect(() => admission.admit('a', 'org-1').enter(1)).toThrow(expect.objectContaining({ kind: 'unavailable', detail: 'the request queue of model version v is full' }));
    expect(admission.loadOf('org-1')).toBe(2);
  });

  it('refuses a held request whose place does not come within the hold, and gives its share back', async () => {
    vi.useFakeTimers();
    const { admission } = setup({ holdMs: 500 });
    admission.admit('a', 'org-1').enter(1);
    const held = admission.admit('a', 'org-2').enter(1);
    const turn = held.wait();
    await vi.advanceTimersByTimeAsync(501);
    expect(await turn).toMatchObject({ kind: 'unavailable', message: 'server is busy' });
    expect(held.state).toBe('refused');
    held.release();
    expect(admission.loadOf('org-2')).toBe(0);
  });

  it('waits for body memory once it has a place, and refuses with 503 when it does not come in time', async () => {
    vi.useFakeTimers();
    const { admission, budget } = setup({ places: 4, budgetBytes: 100, holdMs: 500 });
    const big = admission.admit('a', 'org-1').enter(100);
    const waiting = admission.admit('a', 'org-2').enter(60);
    expect(waiting.state).toBe('held'); // a place, but no memory
    const granted = waiting.wait();
    big.release();
    expect(await granted).toBeUndefined();
    expect([waiting.state, budget.inUse]).toEqual(['ready', 60]);

    const late = admission.admit('a', 'org-3').enter(60);
    const refused = late.wait();
    await vi.advanceTimersByTimeAsync(501);
    expect(await refused).toEqual(predictErrors.memoryBusy(1));
    expect(late.state).toBe('refused');
    late.release();
    waiting.release();
    expect(budget.inUse).toBe(0);
  });

  it('ends the wait of a request abandoned while held, and its place in the waiting room goes back', async () => {
    const { admission, versions } = setup();
    const first = admission.admit('a', 'org-1').enter(1);
    const held = admission.admit('a', 'org-2').enter(1);
    const turn = held.wait();
    held.abandon();
    expect(await turn).toBeUndefined();
    expect(versions.get('a')!.queue.held).toBe(0);
    expect(admission.loadOf('org-2')).toBe(0);
    held.release();
    // The freed place is not given to the abandoned request.
    first.release();
    expect(versions.get('a')!.queue.inFlight).toBe(0);
  });

  it('keeps the memory of a request abandoned while it runs until it is released', async () => {
    const { admission, budget, versions, runs } = setup();
    const pass = admission.admit('a', 'org-1').enter(100);
    const answer = pass.run(new Uint8Array(1), 'image/jpeg', options);
    pass.abandon();
    expect(versions.get('a')!.queue.inFlight).toBe(0); // the place goes back at once
    expect(budget.inUse).toBe(100); // the image is still in a worker's hands
    runs[0]!.finish('{}');
    await answer;
    pass.release();
    pass.release(); // once, whatever the number of calls
    expect(budget.inUse).toBe(0);
    expect(admission.loadOf('org-1')).toBe(0);
    await settle();
  });
});
