// model.json: what the server needs to know about a model directory beyond
// the ONNX file itself: labels, how to prepare the input tensor, how to read
// the outputs and the default thresholds. Validated when a version is
// registered and again when it loads, so a bad file fails with its reason.
import { CodedError, revivable } from '../../errors.js';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { z } from 'zod';
import type { InstanceKind } from '../../config.js';
import { describeIssues } from '../../lib/zod-issues.js';

export const OUTPUT_FORMATS = [
  'yolov8',
  'yolov5',
  'end2end',
  'ssd',
  'detr',
  'classification',
  'yolov8-pose',
  'yolov8-seg',
] as const;
export type OutputFormat = (typeof OUTPUT_FORMATS)[number];

const triple = z.tuple([z.number(), z.number(), z.number()]);

/** Stages a version may list, and how deep they may nest (a child's child at most: stage-tree.ts checks). */
const MAX_STAGES = 4;
export const MAX_STAGE_DEPTH = 2;

/**
 * A child stage: each of the parent's detections with one of `labels`
 * (best first, `maxPerImage` at most) is cropped from the decoded image and
 * run through `modelVersionId`; its answer is nested in the detection's
 * `children` (pipeline/crops.ts, inference-engine.ts).
 */
const stageSchema = z
  .object({
    labels: z.array(z.string().min(1).max(128)).min(1).max(1000),
    modelVersionId: z.string().min(1).max(64),
    crop: z
      .object({
        /** added on each side, a fraction of the box's width (left, right) and height (top, bottom) */
        padding: z.number().min(0).max(2).default(0),
        /** the shorter side grown around the centre to the longer one */
        square: z.boolean().default(false),
        /** a crop narrower or lower than this many of the image's pixels is not run */
        minSize: z.number().int().min(1).max(8192).default(4),
      })
      .strict()
      .default({ padding: 0, square: false, minSize: 4 }),
    maxPerImage: z.number().int().min(1).max(256).default(16),
    /** the child's options over its own defaults: threshold, iou, maxDetections, topK, keypointThreshold */
    options: z
      .object({
        threshold: z.number().min(0).max(1),
        iou: z.number().min(0).max(1),
        maxDetections: z.number().int().min(1).max(1000),
        topK: z.number().int().min(1).max(1000),
        keypointThreshold: z.number().min(0).max(1),
      })
      .partial()
      .strict()
      .default({}),
  })
  .strict();
export const stagesSchema = z.array(stageSchema).max(MAX_STAGES);
export type Stage = z.infer<typeof stageSchema>;

const modelConfigSchema = z
  .object({
    name: z.string().min(1).max(128),
    description: z.string().max(2000).default(''),
    labels: z.array(z.string().min(1).max(128)).min(1).max(10_000),
    /** Pose models: the keypoint names, in the model's order. */
    keypoints: z.array(z.string().min(1).max(128)).min(1).max(1000).optional(),
    input: z
      .object({
        /** Input tensor name; the model's first input when omitted. */
        name: z.string().min(1).optional(),
        width: z.number().int().min(8).max(8192),
        height: z.number().int().min(8).max(8192),
        layout: z.enum(['NCHW', 'NHWC']).default('NCHW'),
        /**
         * The input's element type. uint8: the model takes the pixels as they
         * are (scale, mean and std are not used); float32 and float16 inputs
         * are fed uint8 pixels too, normalised by nodes the server adds in
         * front of the graph (prepared-model.ts).
         */
        dtype: z.enum(['float32', 'float16', 'uint8']).default('float32'),
        /** letterbox keeps the aspect ratio and pads; stretch fills the input. */
        resize: z.enum(['letterbox', 'stretch']).default('letterbox'),
        color: z.enum(['RGB', 'BGR']).default('RGB'),
        /** value = (pixel / scale - mean) / std, per channel in RGB order. */
        scale: z.number().positive().default(255),
        mean: triple.default([0, 0, 0]),
        std: triple.refine((s) => s.every((v) => v !== 0), 'std must not contain 0').default([1, 1, 1]),
        padValue: z.number().int().min(0).max(255).default(114),
        /**
         * Whether the input has a batch axis. Read from the graph when
         * omitted: [3, H, W] (torchvision's detectors exported with
         * torch.onnx.export) has none and runs one image at a time. When
         * given, the graph must agree.
         */
        batchAxis: z.boolean().optional(),
      })
      .strict(),
    output: z
      .object({
        /** Detected from the model's outputs when omitted. */
        format: z.enum(OUTPUT_FORMATS).optional(),
        /** A classifier's output is logits, not probabilities: a softmax makes them scores. */
        logits: z.boolean().default(false),
      })
      .strict()
      .default({ logits: false }),
    /**
     * fp16: the weights and arithmetic run in float16 (the inputs and
     * outputs stay as they are), converted at load (graph/float16.ts).
     * Unset: GPU_PRECISION for GPU instances, fp32 on the CPU.
     */
    precision: z.enum(['fp32', 'fp16']).optional(),
    /**
     * Backend instances of this version, each one ONNX Runtime session in its
     * own thread. Omitted fields take the server-wide defaults
     * (INSTANCE_KIND, INSTANCE_COUNT, GPU_DEVICES).
     */
    instances: z
      .object({
        kind: z.enum(['cpu', 'gpu']).optional(),
        count: z.number().int().min(1).max(64).optional(),
        /** GPU device ids, used round-robin by the instances (kind gpu only) */
        devices: z.array(z.number().int().min(0).max(63)).min(1).max(64).optional(),
      })
      .strict()
      .default({}),
    /**
     * The dynamic batcher in front of the instances. Used only when the
     * model's batch axis is dynamic or fixed above 1; a batch-1 model runs
     * one request at a time whatever is set here. Omitted fields take the
     * server-wide defaults (MAX_BATCH_SIZE, MAX_QUEUE_DELAY_MS).
     */
    batching: z
      .object({
        maxBatchSize: z.number().int().min(1).max(256).optional(),
        maxQueueDelayMs: z.number().min(0).max(1000).optional(),
        /** batch sizes to prefer when more requests wait than one of them */
        preferredBatchSizes: z.array(z.number().int().min(1).max(256)).max(16).optional(),
        /**
         * Run every batch at maxBatchSize rows, padding the rest (default:
         * on for GPU instances, off for CPU). See padsToMaxBatchSize.
         */
        padToMaxBatchSize: z.boolean().optional(),
      })
      .strict()
      .default({}),
    /** child stages (see stageSchema); none by default */
    stages: stagesSchema.default([]),
    defaults: z
      .object({
        /**
         * Unset: the convention's own (resolvePredictOptions): 0.25 and 100,
         * or 0 and every box for outputs the model already filtered (ssd).
         */
        threshold: z.number().min(0).max(1).optional(),
        iou: z.number().min(0).max(1).default(0.45),
        maxDetections: z.number().int().min(1).max(10_000).optional(),
        /** classes a classifier answers at most (the top_k query parameter) */
        topK: z.number().int().min(1).max(1000).default(5),
        /** pose models: keypoints less visible than this are left out (the keypoint_threshold query parameter) */
        keypointThreshold: z.number().min(0).max(1).default(0.5),
      })
      .strict()
      .default({ iou: 0.45, topK: 5, keypointThreshold: 0.5 }),
  })
  .strict();

export type ModelConfig = z.infer<typeof modelConfigSchema>;

/**
 * A config read back from model_versions (db/ types it `unknown`: it does
 * not import this layer). It was stored after parseModelConfig, so it is
 * trusted as one; deploying a version parses it again, which fills the
 * defaults added since it was written.
 */
export function storedModelConfig(stored: unknown): ModelConfig {
  return stored as ModelConfig;
}

export class ModelConfigError extends CodedError {
  readonly code = 'MODEL_CONFIG_INVALID';
  static {
    revivable('MODEL_CONFIG_INVALID', ({ message }) => new ModelConfigError(message));
  }
}

export function parseModelConfig(value: unknown): ModelConfig {
  const result = modelConfigSchema.safeParse(value);
  if (!result.success) throw new ModelConfigError(`model.json: ${describeIssues(result.error)}`);
  return result.data;
}

export const MODEL_FILE = 'model.onnx';
export const CONFIG_FILE = 'model.json';

export async function readModelConfig(directory: string): Promise<ModelConfig> {
  let text: string;
  try {
    text = await readFile(join(directory, CONFIG_FILE), 'utf8');
  } catch (error) {
    throw new ModelConfigError(`cannot read ${CONFIG_FILE} in ${directory}: ${(error as Error).message}`);
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (error) {
    throw new ModelConfigError(`${CONFIG_FILE} is not valid JSON: ${(error as Error).message}`);
  }
  return parseModelConfig(json);
}

/**
 * The largest batch a version's instances run: model.json's, else the
 * server's MAX_BATCH_SIZE (1 unless set). On CPU one image per run measured
 * best: a batch costs its images one after another, and batches gave no more
 * throughput and a worse p99 (bench/results/batching.md). On an H200 with the
 * YOLOv8n-sized model, rewritten, padded batches of 8 served 1.4-2.4x the
 * requests of single images from 16 clients up (bench/results/gpu-h200.md),
 * but every run then costs eight rows (18-22 ms against 5.3), a price a lone
 * client pays in latency; so the default stays 1 and GPU hosts set 8
 * (docs/OPERATIONS.md).
 */
export function maxBatchSizeOf(config: ModelConfig, serverDefault: number): number {
  return config.batching?.maxBatchSize ?? serverDefault;
}

/**
 * Whether a dynamic batch axis runs at one shape, maxBatchSize rows with the
 * unused ones padded. On by default for GPU instances: ONNX Runtime's CUDA
 * provider re-plans its convolutions whenever the input shape changes, and
 * with batch sizes varying from run to run (a dynamic batcher at moderate
 * load) an H200 served 14 req/s instead of 227 (bench/results/gpu-h200.md).
 * Off for CPU, where a run costs in proportion to its rows and a new shape
 * costs nothing.
 */
export function padsToMaxBatchSize(config: ModelConfig, kind: InstanceKind): boolean {
  return config.batching?.padToMaxBatchSize ?? kind === 'gpu';
}

export type Precision = 'fp32' | 'fp16';

/** model.json's precision, else the server's for GPU instances (GPU_PRECISION), else fp32. */
export function precisionOf(config: ModelConfig, kind: InstanceKind, gpuPrecision: Precision): Precision {
  return config.precision ?? (kind === 'gpu' ? gpuPrecision : 'fp32');
}
