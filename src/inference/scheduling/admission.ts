// Predict admission: every gate a request passes before its image reaches
// the engine, and its whole way through them, owned here as one small state
// machine (as Triton's rate limiter and scheduler own their queues) rather
// than driven step by step by its callers.
//
//   admit(versionId, organizationId)    the version exists for the caller and is Active
//     → Admitted                        (404, or 500 while it initializes or after it failed)
//   enter(admitted, bodyBytes)          the organization's share of the server, a place in
//     → PredictPass                     the version's queue, memory for the body   (503)
//        'ready'   place and memory held: its body is read at once
//        'held'    its body stays unread (the port's pause()) until its turn
//   pass.run(body, contentType, options)  the rest, driven here through the body's
//                                       port: read, and if held pause, wait for the place
//                                       then the memory, and resume or refuse ('refused',
//                                       the 503 rejected); then 'running' → 'done': the
//                                       detections' JSON; everything given back as it ends
//   pass.abandon()     the client went away: its place and share go back at once
//
// Each version's queue (version-queue.ts) is admission's: built here on the
// version's first request, with the drain rate its refusals' Retry-After
// reads (drain-rate.ts), and reported as the inference_queue_depth gauge.
//
// A held request costs no body memory and no CPU: under overload, clients
// that retry at once wait their turn instead of being refused. The body's
// memory stays held until the run ends, even after abandon(): a running
// image is still in a worker's hands. The front end (http/routes/predict.ts)
// decides only what is HTTP's: the body's port (body-readers.ts
// HandlerBody) and the answer.
import type { BodyBudget } from '../../lib/body-budget.js';
import type { DomainError } from '../../errors.js';
import { Gauge, type Registry } from '../../observability/metrics.js';
import { DrainRate } from './drain-rate.js';
import { predictErrors } from '../predict-errors.js';
import type { PredictOptions } from '../predict-options.js';
import { VersionQueue, type QueueTicket } from './version-queue.js';

/** What admission needs of a version (inference-service.ts's DeployedVersion): its id; its queue is admission's own. */
export interface AdmissibleVersion {
  readonly id: string;
}

/** The scheduler behind the gates (InferenceService): which versions may be called, and running one. */
export interface AdmissionBackend<V extends AdmissibleVersion> {
  /** the version, visible to the organization and Active; throws the domain error otherwise */
  admit(versionId: string, organizationId: string): V;
  /** the versions deployed now (the queue-depth gauge lists each) */
  deployed(): Iterable<V>;
  /** runs one prediction; `body` is transferred to a worker and unusable afterwards */
  predict(
    version: V,
    organizationId: string,
    body: Uint8Array,
    contentType: string,
    options: PredictOptions,
  ): Promise<PredictAnswer>;
}

/** A prediction's answer: its JSON, and why child stages left detections without children (none: all ran). */
export interface PredictAnswer {
  json: string;
  skipped: string[];
}

/**
 * The port through which a pass drives its request's body: the front end's
 * (http/body-readers.ts HandlerBody: the client's socket) or one already in
 * memory (bufferedBody: a camera frame).
 */
export interface PassBody {
  /** Starts reading the body; run() calls it once, synchronously, before it waits (uWS wants its reader attached within the handler). */
  read(): Promise<Uint8Array> | Uint8Array;
  /** The pass is held: leave the body unread (the socket paused) until resume() or refused(). */
  pause(): void;
  /** The held pass's turn came: read on. */
  resume(): void;
  /** The held pass was refused: whatever must happen to the unread body before the refusal is answered (awaited when it answers a promise). */
  refused(): Promise<unknown> | undefined;
}

/** The port of a body already in memory (its memory held by whoever read it): nothing to pause. */
export function bufferedBody(bytes: Uint8Array): PassBody {
  return { read: () => bytes, pause() {}, resume() {}, refused: () => undefined };
}

export interface AdmissionLimits {
  /** requests one organization may have queued or held, all versions together (ORGANIZATION_QUEUE_SIZE) */
  organizationRequests: number;
  /** each version's places for requests in flight (QUEUE_SIZE) */
  places: number;
  /** each version's requests held unread beyond its places, before 503 (QUEUE_WAITING_ROOM) */
  waitingRoom: number;
  /** how long a held request waits for a place, then for body memory once it has one (QUEUE_HOLD_MS) */
  holdMs: number;
}

/** A pass's state; 'refused' and 'done' are where run() leaves it. */
export type PassState = 'held' | 'ready' | 'refused' | 'running' | 'done';

/**
 * Requests each organization has queued, held or running, all versions
 * together, up to its share of the server: the per-version limits alone
 * would let many versions of one tenant fill the pipeline every tenant shares.
 */
class OrganizationShares {
  private readonly load = new Map<string, number>();

  constructor(
    /** ORGANIZATION_QUEUE_SIZE */
    private readonly limit: number,
  ) {}

  /** Requests the organization holds now. */
  of(organizationId: string): number {
    return this.load.get(organizationId) ?? 0;
  }

  /** Throws the organization's 503 when it holds its whole share already. */
  check(organizationId: string): void {
    if (this.of(organizationId) >= this.limit) throw predictErrors.organizationBusy(this.limit);
  }

  /** Counts one more request of the organization (after check()). */
  take(organizationId: string): void {
    this.load.set(organizationId, this.of(organizationId) + 1);
  }

  /** One of its requests ended (or left its place). */
  give(organizationId: string): void {
    const left = this.of(organizationId) - 1;
    if (left > 0) this.load.set(organizationId, left);
    else this.load.delete(organizationId);
  }
}

/** What every pass of one PredictAdmission works with, made once: its collaborators. */
interface PassGates<V extends AdmissibleVersion> {
  readonly backend: AdmissionBackend<V>;
  readonly budget: BodyBudget;
  readonly shares: OrganizationShares;
  readonly holdMs: number;
}

/** A request past the first gate: its version is known (its defaults shape the options). */
export interface Admitted<V extends AdmissibleVersion> {
  readonly version: V;
  readonly organizationId: string;
}

export class PredictAdmission<V extends AdmissibleVersion> {
  private readonly gates: PassGates<V>;
  /**
   * Each version's queue, made on its first request and gone with the
   * version (a version deployed again is a new object: a new queue).
   */
  private readonly queues = new WeakMap<V, VersionQueue>();

  constructor(
    private readonly backend: AdmissionBackend<V>,
    /** the body memory every route's buffered bodies share, each organization a part */
    budget: BodyBudget,
    private readonly limits: AdmissionLimits,
    metrics: Registry,
  ) {
    this.gates = {
      backend,
      budget,
      shares: new OrganizationShares(limits.organizationRequests),
      holdMs: limits.holdMs,
    };
    metrics.register(
      new Gauge(
        'inference_queue_depth',
        'predict requests in flight per model version (queued or running)',
        ['model_version'],
        () => Array.from(backend.deployed(), (v) => ({ labels: { model_version: v.id }, value: this.inFlight(v) })),
      ),
    );
  }

  /** The first gate, decided before anything of the body is known. */
  admit(versionId: string, organizationId: string): Admitted<V> {
    return { version: this.backend.admit(versionId, organizationId), organizationId };
  }

  /**
   * The other gates, in turn: the organization's share, a place in the
   * version's queue (or the waiting room), and `bodyBytes` of memory if free
   * now; throws the 503 before anything of the body is read. Run the pass
   * at once: run() gives everything back when it ends.
   */
  enter({ version, organizationId }: Admitted<V>, bodyBytes: number): PredictPass<V> {
    const { shares, budget } = this.gates;
    shares.check(organizationId);
    const ticket = this.queueOf(version).enter(organizationId); // throws the version's 503
    shares.take(organizationId);
    const memory = ticket.wait === null && budget.tryReserve(bodyBytes, organizationId);
    return new PredictPass(this.gates, version, organizationId, bodyBytes, ticket, memory);
  }

  /** requests an organization holds now (queued, held or running), for tests and metrics */
  loadOf(organizationId: string): number {
    return this.gates.shares.of(organizationId);
  }

  /** requests holding a place of the version now (reading their body, waiting for a load, queued or running) */
  inFlight(version: V): number {
    return this.queues.get(version)?.inFlight ?? 0;
  }

  /** requests of the version held in its waiting room now */
  held(version: V): number {
    return this.queues.get(version)?.held ?? 0;
  }

  private queueOf(version: V): VersionQueue {
    let queue = this.queues.get(version);
    if (!queue) {
      const drain = new DrainRate();
      const { places, waitingRoom, holdMs } = this.limits;
      const id = version.id;
      // A refusal's Retry-After: how long the version takes to drain what it holds, at its measured rate.
      const made: VersionQueue = new VersionQueue(
        { places, waitingRoom, holdMs },
        () => predictErrors.overloaded(id, drain.retryAfterSeconds(made.inFlight + made.held)),
        () => drain.completed(),
      );
      this.queues.set(version, (queue = made));
    }
    return queue;
  }
}

/** One request's way through the gates after admit; see the state machine above. */
export class PredictPass<V extends AdmissibleVersion> {
  private current: PassState;
  /** the queue place and the organization's share are still held */
  private placeHeld = true;
  /** run() was called (once only) */
  private started = false;
  /** ends wait() for a pass abandoned while its ticket waits (a released waiting ticket never settles) */
  private onAbandon: (() => void) | undefined;

  constructor(
    private readonly gates: PassGates<V>,
    readonly version: V,
    private readonly organizationId: string,
    private readonly bodyBytes: number,
    private readonly ticket: QueueTicket,
    private memoryHeld: boolean,
  ) {
    this.current = memoryHeld ? 'ready' : 'held';
  }

  get state(): PassState {
    return this.current;
  }

  /**
   * The rest of the pass, once: reads the body through its port (a held
   * pass pauses it, waits for its place and then its memory, and resumes it
   * or rejects with the 503: 'refused'), runs the prediction on it (the body
   * is transferred to a worker) and resolves its answer; undefined when the
   * pass was abandoned before it could run (nobody to answer). Whatever the
   * outcome, everything the pass holds is given back when it settles.
   */
  run(body: PassBody, contentType: string, options: PredictOptions): Promise<PredictAnswer | undefined> {
    return this.runJob(body, (bytes) =>
      this.gates.backend.predict(this.version, this.organizationId, bytes, contentType, options),
    );
  }

  /**
   * run() with another job on the body than a prediction (the Open
   * Inference Protocol's tensors in): the same reading, holding, refusal and
   * release around it.
   */
  async runJob<T>(body: PassBody, job: (bytes: Uint8Array) => Promise<T>): Promise<T | undefined> {
    if (this.started) throw new Error(`predict admission: run() again, in state ${this.current}`);
    this.started = true;
    const reading = body.read(); // before any await: see PassBody.read
    try {
      if (this.current === 'held') {
        // Its body stays where it is until its turn: no memory, no CPU.
        body.pause();
        const refusal = await this.wait();
        if (!this.placeHeld) return undefined; // abandoned while it waited
        if (refusal) {
          await body.refused();
          throw refusal;
        }
        body.resume();
      }
      const bytes = await reading;
      this.current = 'running';
      return await job(bytes);
    } finally {
      this.end();
    }
  }

  /** The client went away: its queue place and its organization's share go back now (the memory when run() ends). */
  abandon(): void {
    if (!this.placeHeld) return;
    this.placeHeld = false;
    this.gates.shares.give(this.organizationId);
    this.ticket.release();
    this.onAbandon?.();
  }

  /**
   * Waits for a queue place, then for body memory. Resolves undefined once
   * both are held ('ready'), or with the 503 to answer ('refused'); a pass
   * abandoned meanwhile stays held, holding no place.
   */
  private async wait(): Promise<DomainError | undefined> {
    try {
      if (this.ticket.wait)
        await Promise.race([this.ticket.wait, new Promise<void>((gone) => (this.onAbandon = gone))]);
    } catch (error) {
      this.current = 'refused';
      return error as DomainError;
    }
    if (!this.placeHeld) return undefined; // abandoned while it waited
    const { budget, holdMs } = this.gates;
    this.memoryHeld = await budget.reserve(this.bodyBytes, this.organizationId, holdMs);
    if (!this.memoryHeld) {
      this.current = 'refused';
      return predictErrors.memoryBusy(1);
    }
    this.current = 'ready';
    return undefined;
  }

  /** run() ends: 'done' unless refused, and everything still held given back. */
  private end(): void {
    if (this.current !== 'refused') this.current = 'done';
    this.abandon();
    if (this.memoryHeld) {
      this.memoryHeld = false;
      this.gates.budget.release(this.bodyBytes, this.organizationId);
    }
  }
}
