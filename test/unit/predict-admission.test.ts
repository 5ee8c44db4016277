// The predict admission pass (src/inference/scheduling/admission.ts) on its own, no
// server: the real VersionQueue and BodyBudget, a backend that knows two
// versions and answers a prediction when the test says so, and a fake body
// port that records what the pass asks of it and hands over its bytes when
// the test says so.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { DomainError } from '../../src/errors.js';
import { PredictAdmission, type AdmissionBackend, type PassBody } from '../../src/inference/scheduling/admission.js';
import { predictErrors } from '../../src/inference/predict-errors.js';
import { predictOptions } from '../../src/inference/predict-options.js';
import { BodyBudget } from '../../src/lib/body-budget.js';
import { Registry } from '../../src/observability/metrics.js';

interface TestVersion {
  id: string;
}

const options = predictOptions({}, { threshold: 0.5, iou: 0.45, maxDetections: 100 } as never);

/** Versions with `places` places and `waitingRoom` held requests each; runs resolve when the test calls finish(). */
function setup({ places = 1, waitingRoom = 1, organizationRequests = 4, budgetBytes = 1000, holdMs = 1000 } = {}) {
  const versions = new Map<string, TestVersion>([
    ['a', { id: 'a' }],
    ['b', { id: 'b' }],
  ]);
  const runs: Array<{
    version: string;
    body: Uint8Array;
    finish: (json: string) => void;
    fail: (error: Error) => void;
  }> = [];
  const backend: AdmissionBackend<TestVersion> = {
    admit(id) {
      const version = versions.get(id);
      if (!version) throw predictErrors.versionNotFound();
      return version;
    },
    deployed: () => versions.values(),
    predict(version, _organizationId, body) {
      return new Promise((resolve, fail) =>
        runs.push({ version: version.id, body, finish: (json) => resolve({ json, skipped: [] }), fail }),
      );
    },
  };
  const budget = new BodyBudget(budgetBytes);
  const metrics = new Registry();
  const admission = new PredictAdmission(
    backend,
    budget,
    { organizationRequests, places, waitingRoom, holdMs },
    metrics,
  );
  /** admit, then enter: a pass, or the thrown refusal */
  const enter = (version: string, organization: string, bytes: number) =>
    admission.enter(admission.admit(version, organization), bytes);
  /** places taken and requests held in the waiting room of a version */
  const queue = (version: string) => ({
    inFlight: admission.inFlight(versions.get(version)!),
    held: admission.held(versions.get(version)!),
  });
  return { admission, enter, queue, budget, versions, runs, metrics };
}

/** A body port that records the pass's calls; its bytes arrive when the test calls arrive() (or fail()). */
function fakeBody(bytes = new Uint8Array([1, 2, 3])) {
  const calls: string[] = [];
  let arrive!: () => void;
  let fail!: (error: Error) => void;
  const arrived = new Promise<Uint8Array>((resolve, reject) => {
    arrive = () => resolve(bytes);
    fail = reject;
  });
  arrived.catch(() => {});
  const port: PassBody = {
    read: () => {
      calls.push('read');
      return arrived;
    },
    pause: () => void calls.push('pause'),
    resume: () => void calls.push('resume'),
    refused: () => {
      calls.push('refused');
      return undefined;
    },
  };
  return { port, calls, bytes, arrive: () => arrive(), fail: (error: Error) => fail(error) };
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

  it('ready: reads the body at once (no pause), runs it, and gives back the place, the share and the memory when the run ends', async () => {
    const { admission, enter, budget, queue, runs } = setup();
    const pass = enter('a', 'org-1', 100);
    expect(pass.state).toBe('ready');
    expect([admission.loadOf('org-1'), queue('a').inFlight, budget.inUse]).toEqual([1, 1, 100]);

    const body = fakeBody();
    const answer = pass.run(body.port, 'image/jpeg', options);
    expect(body.calls).toEqual(['read']); // synchronously, within run()
    body.arrive();
    await settle();
    expect(pass.state).toBe('running');
    expect(runs.map((r) => [r.version, r.body])).toEqual([['a', body.bytes]]);
    expect(budget.inUse).toBe(100);
    runs[0]!.finish('{"cat":[]}');
    expect((await answer)?.json).toBe('{"cat":[]}');
    expect(pass.state).toBe('done');
    expect(body.calls).toEqual(['read']);
    expect([admission.loadOf('org-1'), queue('a').inFlight, budget.inUse]).toEqual([0, 0, 0]);
  });

  it('runs a pass once', async () => {
    const { enter, runs } = setup();
    const pass = enter('a', 'org-1', 10);
    const body = fakeBody();
    const answer = pass.run(body.port, 'image/jpeg', options);
    await expect(pass.run(fakeBody().port, 'image/jpeg', options)).rejects.toThrow(/run\(\) again, in state ready/);
    body.arrive();
    await settle();
    runs[0]!.finish('{}');
    await answer;
    await expect(pass.run(fakeBody().port, 'image/jpeg', options)).rejects.toThrow(/run\(\) again, in state done/);
  });

  it("refuses past the organization's share of the server, all versions together, before taking a queue place", async () => {
    const { admission, enter, queue, runs } = setup({ places: 4, organizationRequests: 2 });
    const first = enter('a', 'org-1', 1);
    enter('b', 'org-1', 1);
    let refusal: unknown;
    try {
      enter('a', 'org-1', 1);
    } catch (error) {
      refusal = error;
    }
    expect(refusal).toBeInstanceOf(DomainError);
    expect(refusal).toMatchObject({ kind: 'unavailable', retryAfterSeconds: 1 });
    expect((refusal as DomainError).detail).toMatch(/ORGANIZATION_QUEUE_SIZE/);
    expect(queue('a').inFlight).toBe(1);
    // Another organization is not held back by it.
    expect(enter('a', 'org-2', 1).state).toBe('ready');
    const body = fakeBody();
    const answer = first.run(body.port, 'image/jpeg', options);
    body.arrive();
    await settle();
    runs[0]!.finish('{}');
    await answer;
    expect(admission.loadOf('org-1')).toBe(1);
    expect(enter('a', 'org-1', 1).state).toBe('ready');
  });

  it('held: pauses the body, with no body memory, until a place frees; then resumes it and runs', async () => {
    const { enter, budget, runs } = setup();
    const first = enter('a', 'org-1', 100);
    const firstBody = fakeBody();
    const firstAnswer = first.run(firstBody.port, 'image/jpeg', options);
    const second = enter('a', 'org-2', 100);
    expect(second.state).toBe('held');

    const body = fakeBody();
    const answer = second.run(body.port, 'image/jpeg', options);
    expect(body.calls).toEqual(['read', 'pause']);
    body.arrive(); // bytes that came anyway are not run before the pass's turn
    await settle();
    expect(budget.inUse).toBe(100);
    expect(runs).toHaveLength(0);

    firstBody.arrive();
    await settle();
    runs[0]!.finish('{"first":[]}');
    expect((await firstAnswer)?.json).toBe('{"first":[]}');
    await settle();
    expect(second.state).toBe('running');
    expect(body.calls).toEqual(['read', 'pause', 'resume']);
    expect(budget.inUse).toBe(100);
    runs[1]!.finish('{"second":[]}');
    expect((await answer)?.json).toBe('{"second":[]}');
    expect(budget.inUse).toBe(0);
  });

  it("builds each version's queue itself, a fresh one for a version deployed again, and reports the depth of every deployed version", () => {
    const { enter, queue, versions, metrics } = setup({ places: 2 });
    enter('a', 'org-1', 1);
    expect(metrics.render()).toContain(
      'inference_queue_depth{model_version="a"} 1\ninference_queue_depth{model_version="b"} 0\n',
    );
    versions.set('a', { id: 'a' }); // undeployed, then deployed again: another object
    expect(queue('a').inFlight).toBe(0);
    expect(enter('a', 'org-1', 1).state).toBe('ready');
    expect(enter('a', 'org-1', 1).state).toBe('ready');
    expect(queue('a').inFlight).toBe(2);
  });

  it('refuses with the queue error when the waiting room is full too', () => {
    const { admission, enter } = setup({ places: 1, waitingRoom: 1 });
    enter('a', 'org-1', 1);
    enter('a', 'org-1', 1);
    expect(() => enter('a', 'org-1', 1)).toThrow(
      expect.objectContaining({ kind: 'unavailable', detail: 'the request queue of model version a is full' }),
    );
    expect(admission.loadOf('org-1')).toBe(2);
  });

  it('rejects a held request whose place does not come within the hold, tells the port, and gives its share back', async () => {
    vi.useFakeTimers();
    const { admission, enter, runs } = setup({ holdMs: 500 });
    enter('a', 'org-1', 1);
    const held = enter('a', 'org-2', 1);
    const body = fakeBody();
    const answer = held.run(body.port, 'image/jpeg', options);
    answer.catch(() => {});
    await vi.advanceTimersByTimeAsync(501);
    await expect(answer).rejects.toMatchObject({ kind: 'unavailable', message: 'server is busy' });
    expect(held.state).toBe('refused');
    expect(body.calls).toEqual(['read', 'pause', 'refused']); // never resumed
    expect(runs).toHaveLength(0);
    expect(admission.loadOf('org-2')).toBe(0);
  });

  it('waits for body memory once it has a place, and rejects with 503 when it does not come in time', async () => {
    vi.useFakeTimers();
    const { enter, budget, runs } = setup({ places: 4, budgetBytes: 100, holdMs: 500 });
    const big = enter('a', 'org-1', 100);
    const bigBody = fakeBody();
    const bigAnswer = big.run(bigBody.port, 'image/jpeg', options);
    const waiting = enter('a', 'org-2', 60);
    expect(waiting.state).toBe('held'); // a place, but no memory
    const waitingBody = fakeBody();
    const granted = waiting.run(waitingBody.port, 'image/jpeg', options);
    bigBody.arrive();
    await vi.advanceTimersByTimeAsync(0);
    runs[0]!.finish('{}');
    await bigAnswer;
    await vi.advanceTimersByTimeAsync(0);
    expect([waiting.state, budget.inUse]).toEqual(['ready', 60]);
    expect(waitingBody.calls).toEqual(['read', 'pause', 'resume']);

    const late = enter('a', 'org-3', 60);
    const lateBody = fakeBody();
    const refused = late.run(lateBody.port, 'image/jpeg', options);
    refused.catch(() => {});
    await vi.advanceTimersByTimeAsync(501);
    await expect(refused).rejects.toEqual(predictErrors.memoryBusy(1));
    expect(late.state).toBe('refused');
    expect(lateBody.calls).toEqual(['read', 'pause', 'refused']);
    expect(budget.inUse).toBe(60);
    waitingBody.arrive();
    await vi.advanceTimersByTimeAsync(0);
    runs[1]!.finish('{}');
    await granted;
    expect(budget.inUse).toBe(0);
  });

  it('ends the wait of a request abandoned while held: nothing to answer, its place in the waiting room goes back at once', async () => {
    const { admission, enter, queue, runs } = setup();
    const first = enter('a', 'org-1', 1);
    const held = enter('a', 'org-2', 1);
    const body = fakeBody();
    const answer = held.run(body.port, 'image/jpeg', options);
    held.abandon();
    expect(queue('a').held).toBe(0);
    expect(admission.loadOf('org-2')).toBe(0);
    expect(await answer).toBeUndefined();
    expect(body.calls).toEqual(['read', 'pause']);
    // The freed place is not given to the abandoned request.
    const firstBody = fakeBody();
    const firstAnswer = first.run(firstBody.port, 'image/jpeg', options);
    firstBody.arrive();
    await settle();
    runs[0]!.finish('{}');
    await firstAnswer;
    expect(queue('a').inFlight).toBe(0);
    expect(runs).toHaveLength(1);
  });

  it('keeps the memory of a request abandoned while it runs until its run ends', async () => {
    const { admission, enter, budget, queue, runs } = setup();
    const pass = enter('a', 'org-1', 100);
    const body = fakeBody();
    const answer = pass.run(body.port, 'image/jpeg', options);
    body.arrive();
    await settle();
    pass.abandon();
    expect(queue('a').inFlight).toBe(0); // the place goes back at once
    expect(budget.inUse).toBe(100); // the image is still in a worker's hands
    runs[0]!.finish('{}');
    expect((await answer)?.json).toBe('{}');
    expect(budget.inUse).toBe(0);
    expect(admission.loadOf('org-1')).toBe(0);
  });

  it("rejects with the body's error when it cannot be read, without running, everything given back", async () => {
    const { admission, enter, budget, queue, runs } = setup();
    const pass = enter('a', 'org-1', 100);
    const body = fakeBody();
    const answer = pass.run(body.port, 'image/jpeg', options);
    const tooLarge = new Error('request body of 2000 bytes is over the limit');
    body.fail(tooLarge);
    await expect(answer).rejects.toBe(tooLarge);
    expect(pass.state).toBe('done');
    expect(runs).toHaveLength(0);
    expect([admission.loadOf('org-1'), queue('a').inFlight, budget.inUse]).toEqual([0, 0, 0]);
  });

  it("rejects with the run's error, everything given back", async () => {
    const { admission, enter, budget, runs } = setup();
    const pass = enter('a', 'org-1', 100);
    const body = fakeBody();
    const answer = pass.run(body.port, 'image/jpeg', options);
    body.arrive();
    await settle();
    runs[0]!.fail(predictErrors.unknownFormat());
    await expect(answer).rejects.toMatchObject({ message: 'could not parse image' });
    expect(pass.state).toBe('done');
    expect([admission.loadOf('org-1'), budget.inUse]).toEqual([0, 0]);
  });
});
