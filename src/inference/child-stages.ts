// A version's child stages, run inside its prediction: the parent's
// detections with a stage's labels (best first, at most maxPerImage) are
// cropped from the image the parent's preprocessing kept (decoded once, at
// its own size), every crop of a stage resampled by the addon straight into
// a tensor slot of the child's, in one worker task (cut and resized in one
// pass, no re-encoding, no copy), run through the child's batcher together
// (so they batch),
// decoded in one worker task, moved back to the whole image's coordinates
// and nested in each detection's `children`. A child's own stages run the
// same way on its detections, from the same image. A stage that cannot run
// (its version not Active, gone, or failing) leaves its detections'
// children empty and says why in `skipped`: the parent's answer stands.
import { deserializeError } from '../errors.js';
import type { Answer, Children } from './pipeline/detections.js';
import { boxOf, type CropRect, cropRect, toImage } from './pipeline/crops.js';
import type { Placement } from './pipeline/letterbox.js';
import type { PipelinePool } from './pipeline/pipeline-pool.js';
import type { ImageOutputs } from './pipeline/postprocess.js';
import type { KeptImage } from './pipeline/preprocess.js';
import { resolvePredictOptions, type PredictOptions } from './predict-options.js';
import type { LoadedModel } from './versions/loaded-model.js';
import type { Stage } from './versions/model-config.js';

/** A stage ready to run: its settings, its child's pinned load and options (none: it cannot run, `skipped` says why), the child's own stages. */
export interface StageRun {
  stage: Stage;
  child: { model: LoadedModel; options: PredictOptions } | undefined;
  stages: StageRun[];
}

/**
 * Why some detections have no children, in words: each "<version id>:
 * <reason>" once, "; " apart; undefined when every stage ran. Predict's
 * `X-Children-Skipped` header and the inference protocol's
 * `children_skipped` parameter say it.
 */
export function skippedReasons(skipped: readonly string[]): string | undefined {
  return skipped.length === 0 ? undefined : [...new Set(skipped)].join('; ');
}

/** What running the stages cost and what they could not do. */
export interface StagesOutcome {
  crops: number;
  cropMs: number;
  childMs: number;
  /** why a stage's children are missing: "<version id>: <reason>" */
  skipped: string[];
}

export class ChildStages {
  constructor(private readonly pipeline: PipelinePool) {}

  /**
   * Runs `runs` on `answer` (a parent's, grouped by label, in the image's
   * fractions), nesting each child's answer in its detection's children;
   * `caller` is the organization whose fair share the child runs count to.
   */
  async run(
    answer: Record<string, Answer[]>,
    image: KeptImage,
    runs: readonly StageRun[],
    caller: string,
    outcome: StagesOutcome = { crops: 0, cropMs: 0, childMs: 0, skipped: [] },
  ): Promise<StagesOutcome> {
    await Promise.all(runs.map((run) => this.stage(answer, image, run, caller, outcome)));
    return outcome;
  }

  private async stage(
    answer: Record<string, Answer[]>,
    image: KeptImage,
    run: StageRun,
    caller: string,
    outcome: StagesOutcome,
  ): Promise<void> {
    const chosen = chosenDetections(answer, run.stage, image);
    if (chosen.length === 0 || !run.child) return;
    let answers: Array<Record<string, Answer[]>>;
    try {
      answers = await this.cropsThrough(run.child.model, image, chosen, run.child.options, caller, outcome);
    } catch (error) {
      outcome.skipped.push(`${run.stage.modelVersionId}: ${(error as Error).message}`);
      return;
    }
    const nested = answers.map((a, i) => toImage(a, chosen[i]!.rect, image.width, image.height));
    // The child's own stages crop its detections from the same image.
    if (run.stages.length > 0) await Promise.all(nested.map((n) => this.run(n, image, run.stages, caller, outcome)));
    for (const [i, { detection }] of chosen.entries()) merge(detection.children, nested[i]!);
  }

  /**
   * The crops resampled by a worker straight into the child's tensor slots,
   * run through the child's batcher together, decoded in one task.
   */
  private async cropsThrough(
    model: LoadedModel,
    image: KeptImage,
    chosen: readonly Chosen[],
    options: PredictOptions,
    caller: string,
    outcome: StagesOutcome,
  ): Promise<Array<Record<string, Answer[]>>> {
    // Announced first, so the batcher waits for the crops and runs them as one batch.
    for (let i = 0; i < chosen.length; i++) model.batcher.expect();
    const threshold = resolvePredictOptions(options, false).threshold;
    const placements: Placement[] = [];
    const runs: Array<Promise<ImageOutputs>> = [];
    let started: number | undefined;
    try {
      // In rounds of the slots free now (at least one, waited for): a request
      // never waits for a slot while holding others no run will release.
      while (placements.length < chosen.length) {
        const slots = [await model.slots.acquire()];
        for (let slot; slots.length < chosen.length - placements.length && (slot = model.slots.tryAcquire()); )
          slots.push(slot);
        const cut = await this.pipeline
          .crops({
            versionId: model.versionId,
            image,
            rects: chosen.slice(placements.length, placements.length + slots.length).map((c) => c.rect),
            input: model.config.input,
            dtype: model.info.inputDtype,
            slots,
          })
          .catch((error: Error) => error);
        if (cut instanceof Error || !cut.ok) {
          for (const slot of slots) model.slots.release(slot);
          throw cut instanceof Error ? cut : deserializeError(cut.error);
        }
        outcome.cropMs += cut.cropMs;
        placements.push(...cut.placements);
        started ??= performance.now();
        for (const slot of slots)
          runs.push(
            model.batcher
              .submit(slot, threshold, caller)
              .then((r) => r.outputs)
              .finally(() => model.slots.release(slot)),
          );
      }
    } catch (error) {
      for (let i = runs.length; i < chosen.length; i++) model.batcher.abandon();
      await Promise.allSettled(runs);
      throw error;
    }
    // Settled, not raced: every crop's slot is back before the stage fails.
    const settled = await Promise.allSettled(runs);
    const failed = settled.find((r) => r.status === 'rejected');
    if (failed) throw failed.reason;
    outcome.crops += chosen.length;
    outcome.childMs += performance.now() - started!;
    const decoded = await this.pipeline.answers({
      versionId: model.versionId,
      loadKey: model.loadKey,
      config: model.config,
      outputInfo: model.info.outputs,
      outputs: settled.map((r) => (r as PromiseFulfilledResult<ImageOutputs>).value),
      placements,
      options,
    });
    if (!decoded.ok) throw deserializeError(decoded.error);
    return decoded.answers;
  }
}

interface Chosen {
  detection: Answer;
  rect: CropRect;
}

/** The parent's detections a stage crops: its labels', best first, at most maxPerImage, each with a crop big enough. */
function chosenDetections(answer: Record<string, Answer[]>, stage: Stage, image: KeptImage): Chosen[] {
  const candidates: Answer[] = [];
  for (const label of stage.labels) {
    const list = Object.hasOwn(answer, label) ? answer[label] : undefined;
    if (list) candidates.push(...list);
  }
  candidates.sort((a, b) => b.score - a.score);
  const chosen: Chosen[] = [];
  for (const detection of candidates) {
    if (chosen.length >= stage.maxPerImage) break;
    const box = boxOf(detection);
    const rect = box && cropRect(box, image.width, image.height, stage.crop);
    if (rect) chosen.push({ detection, rect });
  }
  return chosen;
}

/** A child's answer into a detection's children, beside what it holds already (another stage's, a mask's box). */
function merge(children: Children, add: Children): void {
  for (const [label, list] of Object.entries(add)) {
    if (Object.hasOwn(children, label)) children[label]!.push(...list);
    // defined, not assigned: a label may be "__proto__"
    else Object.defineProperty(children, label, { value: list, enumerable: true, writable: true, configurable: true });
  }
}
