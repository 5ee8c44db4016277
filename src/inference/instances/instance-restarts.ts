// Whether an isolated instance whose process died unasked (not closed, not
// stopped past INFERENCE_TIMEOUT_MS, not out of its memory) is started
// again. A signal from outside (an operator's or the kernel OOM killer's
// SIGKILL, a SIGTERM) is no fault of the model: the process is restarted
// after a growing backoff, up to RESTARTS_AFTER_KILLS times in WINDOW_MS. A
// crash (a fault signal such as SIGSEGV or SIGABRT, or a non-zero exit) is
// the model's own doing and likely again on the next run: it is restarted
// once, and a second crash in the window fails the version with the
// reason. One count serves all instances of a load: a model that crashes
// one instance after another is one model crashing.
import { performance } from 'node:perf_hooks';

/** Signals only something outside the process sends: not the model's fault. */
const OUTSIDE_SIGNALS: ReadonlySet<string> = new Set(['SIGKILL', 'SIGTERM', 'SIGINT', 'SIGHUP']);

/** outside kills restarted within the window; one more fails the version */
export const RESTARTS_AFTER_KILLS = 5;
/** crashes restarted within the window; one more fails the version */
const RESTARTS_AFTER_CRASHES = 1;
export const WINDOW_MS = 10 * 60_000;
/** the first restart's delay, doubled for each death in the window, at most BACKOFF_MAX_MS */
export const BACKOFF_BASE_MS = 250;
export const BACKOFF_MAX_MS = 5_000;

/** How a process ended: its exit code, or the signal that ended it. */
export interface ProcessEnd {
  code: number | null;
  signal: NodeJS.Signals | null;
}

export type RestartDecision =
  /** `how` the process ended, worded for the requests it was running */
  | { restart: true; delayMs: number; how: string }
  /** `reason`: why the version cannot go on */
  | { restart: false; reason: string };

export class InstanceRestarts {
  private readonly deaths: Array<{ outside: boolean; at: number }> = [];

  constructor(private readonly now: () => number = () => performance.now()) {}

  /** Records a death of one of the load's instance processes and says whether it starts again. */
  died({ code, signal }: ProcessEnd): RestartDecision {
    const at = this.now();
    while (this.deaths.length > 0 && at - this.deaths[0]!.at > WINDOW_MS) this.deaths.shift();
    const outside = signal !== null && OUTSIDE_SIGNALS.has(signal);
    this.deaths.push({ outside, at });
    const alike = this.deaths.filter((d) => d.outside === outside).length;
    const how = outside
      ? `was killed by ${signal}`
      : `crashed (${signal ? `killed by ${signal}` : `exit code ${code}`})`;
    if (alike > (outside ? RESTARTS_AFTER_KILLS : RESTARTS_AFTER_CRASHES)) {
      return { restart: false, reason: `its instance process ${how} ${alike} times in ${WINDOW_MS / 60_000} minutes` };
    }
    return { restart: true, delayMs: Math.min(BACKOFF_MAX_MS, BACKOFF_BASE_MS * 2 ** (this.deaths.length - 1)), how };
  }
}
