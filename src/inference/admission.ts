// Predict admission: every gate a request passes before its image reaches
// the engine, owned here as one small state machine (as Triton's rate
// limiter and scheduler own their queues) rather than juggled by the route.
//
//   admit(version, organization)        the version exists for the caller and is Active
//     → Admitted                        (404, or 500 while it initializes or after it failed)
//   admitted.enter(bodyBytes)           the organization's share of the server, a place in
//     → PredictPass                     the version's queue, memory for the body   (503)
//        'ready'   place and memory held: read the body now
//        'held'    wait() first; the body stays unread in the client's socket
//   pass.wait()   'held' → 'ready', or → 'refused' with the 503 to answer
//   pass.run(body, …)  'ready' → 'running' → 'done': the detections' JSON
//   pass.abandon()     the client went away: its place and share go back at once
//   pass.release()     any state → 'released': everything still held goes back, once
//
// A held request costs no body memory and no CPU: under overload, clients
// that retry at once wait their turn instead of being refused. The body's
// memory stays held until release(), even after abandon(): a running image
// is still in a worker's hands. The front end (http/routes/predict.ts)
// decides only what is HTTP's: reading or leaving the body, and the answer.
import type { BodyBudget } from '../lib/body-budget.js';
import type { DomainError } from '../errors.js';
import { predictErrors } from './predict-errors.js';
import type { PredictOptions } from './predict-options.js';
import type { QueueTicket } from './version-queue.js';

/** What admission needs of a version: its id and its queue (service.ts's DeployedVersion). */
export interface AdmissibleVersion {
  readonly id: string;
  readonly queue: { enter(organizationId: string): QueueTicket };
}

/** The scheduler behind the gates (InferenceService): which versions may be called, and running one. */
export interface AdmissionBackend<V extends AdmissibleVersion> {
  /** the version, visible to the organization and Active; throws the domain error otherwise */
  admit(versionId: string, organizationId: string): V;
  /** runs one prediction; `body` is transferred to a worker and unusable afterwards */
  predict(version: V, organizationId: string, body: Uint8Array, contentType: string, options: PredictOptions): Promise<string>;
}

export interface AdmissionLimits {
  /** requests one organization may have queued or held, all versions together (ORGANIZATION_QUEUE_SIZE) */
  organizationRequests: number;
  /** how long a request waits for body memory once it has a place (QUEUE_HOLD_MS) */
  holdMs: number;
}

export type PassState = 'held' | 'ready' | 'refused' | 'running' | 'done' | 'released';

export class PredictAdmission<V extends AdmissibleVersion> {
  /** requests each calling organization has queued or held */
  private readonly organizationLoad = new Map<string, number>();

  constructor(
    private readonly backend: AdmissionBackend<V>,
    /** the body memory every route's buffered bodies share, each organization a part */
    private readonly budget: BodyBudget,
    private readonly limits: AdmissionLimits,
  ) {}

  /** The first gate, decided before anything of the body is known. */
  admit(versionId: string, organizationId: string): Admitted<V> {
    return new Admitted(this, this.backend.admit(versionId, organizationId), organizationId);
  }

  /** requests an organization holds now (queued, held or running), for tests and metrics */
  loadOf(organizationId: string): number {
    return this.organizationLoad.get(organizationId) ?? 0;
  }

  /** @internal Admitted.enter: the organization's share, then a queue place, then memory if free now. */
  enter(version: V, organizationId: string, bodyBytes: number): PredictPass<V> {
    // One organization's share of the server, whatever its number of versions:
    // the per-version limits alone would let many versions of one tenant fill
    // the pipeline every tenant shares.
    const load = this.loadOf(organizationId);
    if (load >= this.limits.organizationRequests) throw predictErrors.organizationBusy(this.limits.organizationRequests);
    const ticket = version.queue.enter(organizationId); // throws the version's 503
    this.organizationLoad.set(organizationId, load + 1);
    const memory = ticket.wait === null && this.budget.tryReserve(bodyBytes, organizationId);
    return new PredictPass(this, version, organizationId, bodyBytes, ticket, memory);
  }

  /** @internal PredictPass.wait: memory for a request that holds its place. */
  reserveMemory(bytes: number, organizationId: string): Promise<boolean> {
    return this.budget.reserve(bytes, organizationId, this.limits.holdMs);
  }

  /** @internal PredictPass: gives back what a pass held. */
  leave(organizationId: string, ticket: QueueTicket): void {
    const left = this.loadOf(organizationId) - 1;
    if (left > 0) this.organizationLoad.set(organizationId, left);
    else this.organizationLoad.delete(organizationId);
    ticket.release();
  }

  /** @internal */
  releaseMemory(bytes: number, organizationId: string): void {
    this.budget.release(bytes, organizationId);
  }

  /** @internal */
  run(version: V, organizationId: string, body: Uint8Array, contentType: string, options: PredictOptions): Promise<string> {
    return this.backend.predict(version, organizationId, body, contentType, options);
  }
}

/** A request past the first gate: its version is known (its defaults shape the options). */
export class Admitted<V extends AdmissibleVersion> {
  constructor(
    private readonly admission: PredictAdmission<V>,
    readonly version: V,
    private readonly organizationId: string,
  ) {}

  /** Takes the organization's share, a queue place and `bodyBytes` of memory (or waits for them: see PredictPass); throws the 503. */
  enter(bodyBytes: number): PredictPass<V> {
    return this.admission.enter(this.version, this.organizationId, bodyBytes);
  }
}

/** One request's way through the gates after admit; see the state machine above. */
export class PredictPass<V extends AdmissibleVersion> {
  private current: PassState;
  /** the queue place and the organization's share are still held */
  private placeHeld = true;
  /** ends wait() for a pass abandoned while its ticket waits (a released waiting ticket never settles) */
  private onAbandon: (() => void) | undefined;

  constructor(
    private readonly admission: PredictAdmission<V>,
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
   * Waits for a queue place, then for body memory. Resolves undefined once
   * both are held ('ready'), or with the 503 to answer ('refused'). A pass
   * abandoned or released meanwhile stays so, holding nothing.
   */
  async wait(): Promise<DomainError | undefined> {
    this.expect('held', 'wait');
    try {
      if (this.ticket.wait) await Promise.race([this.ticket.wait, new Promise<void>((gone) => (this.onAbandon = gone))]);
    } catch (error) {
      this.settle('refused');
      return error as DomainError;
    }
    if (!this.placeHeld) return undefined; // abandoned while it waited
    const granted = await this.admission.reserveMemory(this.bodyBytes, this.organizationId);
    if (granted && this.current === 'released') {
      this.admission.releaseMemory(this.bodyBytes, this.organizationId); // released while it waited
      return undefined;
    }
    this.memoryHeld = granted;
    if (!granted) {
      this.settle('refused');
      return predictErrors.memoryBusy(1);
    }
    this.settle('ready');
    return undefined;
  }

  /** Runs the prediction on the body read for this pass; `body` is transferred to a worker. */
  run(body: Uint8Array, contentType: string, options: PredictOptions): Promise<string> {
    this.expect('ready', 'run'); // thrown, not rejected: a caller's mistake, not the request's
    this.current = 'running';
    return this.admission.run(this.version, this.organizationId, body, contentType, options).finally(() => this.settle('done'));
  }

  /** The client went away: its queue place and its organization's share go back now (the memory at release). */
  abandon(): void {
    if (!this.placeHeld) return;
    this.placeHeld = false;
    this.admission.leave(this.organizationId, this.ticket);
    this.onAbandon?.();
  }

  /** Gives back everything still held; once, whatever the state (call it when the request ends). */
  release(): void {
    this.abandon();
    if (this.memoryHeld) {
      this.memoryHeld = false;
      this.admission.releaseMemory(this.bodyBytes, this.organizationId);
    }
    this.current = 'released';
  }

  /** A transition, unless the pass was released meanwhile (then it stays released). */
  private settle(state: PassState): void {
    if (this.current !== 'released') this.current = state;
  }

  private expect(state: PassState, step: string): void {
    if (this.current !== state) throw new Error(`predict admission: ${step}() in state ${this.current}`);
  }
}
