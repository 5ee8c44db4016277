// A version's child stages, run inside its prediction: the parent's
// detections with a stage's labels (best first, at most maxPerImage) are
// cropped from the image the parent's preprocessing kept (decoded once, at
// its own size), every crop of a stage resampled into the child's input in
// one worker task by the addon (cut and resized in one pass, no
// re-encoding), run through the child's batcher together (so they batch),
// decoded in one worker task, moved back to the whole image's coordinates
// and nested in each detection's `children`. A child's own stages run the
// same way on its detections, from the same image. A stage that cannot run
// (its version not Active, gone, or failing) leaves its detections'
// children empty and says why in `skipped`: the parent's answer stands.
import { deserializeError } from '../errors.js';
import type { Answer, Children } from './pipeline/detections.js';
import { boxOf, type CropRect, cropRect, toImage } from './pipeline/crops.js';
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

  /** The crops resampled in one worker task, run through the child's batcher together, decoded in one task. */
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
    let submitted = 0;
    try {
      const cut = await this.pipeline.crops({
        versionId: model.versionId,
        image,
        rects: chosen.map((c) => c.rect),
        input: model.config.input,
        dtype: model.info.inputDtype,
      });
      if (!cut.ok) throw deserializeError(cut.error);
      outcome.crops += chosen.length;
      outcome.cropMs += cut.cropMs;
      const threshold = resolvePredictOptions(options, false).threshold;
      const started = performance.now();
      // Settled, not raced: a failed crop must not leave the others announced and unaccounted for.
      const settled = await Promise.allSettled(
        cut.crops.map(async ({ tensor }) => {
          const slot = await model.slots.acquire();
          try {
            new Uint8Array(slot).set(new Uint8Array(tensor.buffer, tensor.byteOffset, tensor.byteLength));
            submitted++;
            return (await model.batcher.submit(slot, threshold, caller)).outputs;
          } finally {
            model.slots.release(slot);
          }
        }),
      );
      const failed = settled.find((r) => r.status === 'rejected');
      if (failed) throw failed.reason;
      const outputs = settled.map((r) => (r as PromiseFulfilledResult<ImageOutputs>).value);
      outcome.childMs += performance.now() - started;
      const decoded = await this.pipeline.answers({
        versionId: model.versionId,
        loadKey: model.loadKey,
        config: model.config,
        outputInfo: model.info.outputs,
        outputs,
        placements: cut.crops.map((c) => c.placement),
        options,
      });
      if (!decoded.ok) throw deserializeError(decoded.error);
      return decoded.answers;
    } finally {
      for (let i = submitted; i < chosen.length; i++) model.batcher.abandon();
    }
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
