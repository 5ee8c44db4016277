// POST /v1/models/:modelVersionId/predict (docs/CONTRACT.md#predict). Everything
// that can fail without the body fails before a byte of it is buffered:
// authentication, the query, the version's state, the content type, the
// queue and the memory budget. Those gates, and the pass through them, are
// inference/scheduling/admission.ts's: the handler (body policy 'handler') hands its pass
// the body's port (body-readers.ts HandlerBody), which the pass reads, pauses
// and resumes, and answers.
import { z } from 'zod';
import { imageSizeCounter } from '../../inference/pipeline/image-size.js';
import { predictErrors } from '../../inference/predict-errors.js';
import { MAX_DETECTIONS_LIMIT, predictOptions, TOP_K_LIMIT } from '../../inference/predict-options.js';
import { MAX_STAGE_DEPTH } from '../../inference/versions/model-config.js';
import { skippedReasons } from '../../inference/child-stages.js';
import { predictBodyKind, predictBodyLimit } from '../../inference/pipeline/request-body.js';
import type { PredictAdmission, PredictPass } from '../../inference/scheduling/admission.js';
import type { DeployedVersion } from '../../inference/inference-service.js';
import { defineEndpoint, type Endpoint } from '../api.js';
import { ApiError } from '../errors.js';
import { numberBetween, queryFlag, queryNumber } from '../query-params.js';
import { BodyTooLargeError, declaredLength, HandlerBody, SMALL_BODY_BYTES } from '../body-readers.js';

export interface PredictRouteDeps {
  /** the gates a request passes before its image reaches the engine (inference/scheduling/admission.ts) */
  admission: PredictAdmission<DeployedVersion>;
  maxImageBytes: number;
}

const fraction = (name: string) =>
  queryNumber({
    doc: {
      type: 'number',
      minimum: 0,
      maximum: 1,
      description: `${name}; the model version's default (model.json) when absent`,
    },
    parse: (raw) => numberBetween(0, 1, raw),
    message: (raw) => `must be a number between 0 and 1, got "${raw}"`,
  });

const count = (limit: number, description: string) =>
  queryNumber({
    doc: { type: 'integer', minimum: 1, maximum: limit, description },
    parse: (raw) => (/^\d+$/.test(raw.trim()) ? numberBetween(1, limit, raw) : undefined),
    message: (raw) => `must be an integer between 1 and ${limit}, got "${raw}"`,
  });

// In the order the platform checked them (docs/CONTRACT.md#predict-query), which is the order
// a client with several wrong parameters hears about them; those it did not have come last.
const predictOptionsShape = {
  max_detections: count(MAX_DETECTIONS_LIMIT, "at most this many detections; the model version's default when absent"),
  threshold: fraction('minimum score'),
  iou: fraction('IoU above which overlapping boxes of a label are suppressed'),
  top_k: count(
    TOP_K_LIMIT,
    "classifiers: at most this many classes; the model version's default (defaults.topK) when absent",
  ),
  keypoint_threshold: fraction('pose models: minimum visibility of a keypoint'),
  box: queryFlag("segmentation models: each polygon's box too, as a rectangle in its children (false when absent)"),
};
// An option predict does not know (a misspelt `thresh`) is refused naming
// the known ones, after them: ignored, it would silently answer with the defaults.
const predictQuery = z.object(predictOptionsShape).catchall(
  z.unknown().refine(() => false, {
    error: `unknown option; predict's options are ${Object.keys(predictOptionsShape).join(', ')}`,
  }),
);

/**
 * The body types predict reads, named where its documented refusal of any
 * other cannot name them (docs/CONTRACT.md#predict-errors keeps that body byte
 * for byte): an `Accept-Post` header (the W3C's, registered with IANA) on it.
 */
const ACCEPT_POST = { 'Accept-Post': 'multipart/form-data, application/json' } as const;

/** Predict's 400 for a body that is neither multipart nor JSON, its documented body unchanged, with Accept-Post. */
export function notMultipart(): ApiError {
  const documented = ApiError.from(predictErrors.notMultipart())!;
  return new ApiError(documented.status, documented.message, documented.detail, ACCEPT_POST, documented.code);
}

const point = z.array(z.number()).length(2);
const empty = z.object({}).strict();
/**
 * Why some detections have no children: `X-Children-Skipped`, one
 * "<version id>: <reason>" per child stage that could not run, "; " apart,
 * in printable ASCII (a header's); absent when every stage ran.
 */
function childrenSkippedHeader(skipped: readonly string[]): Record<string, string> | undefined {
  const text = skippedReasons(skipped);
  if (text === undefined) return undefined;
  return { 'X-Children-Skipped': text.replace(/[^\x20-\x7e]/g, '?').slice(0, 2000) };
}

/** The detection shapes; nested ones (a keypoint, a mask's box) have no children of their own. */
const detectionOf = (children: z.ZodType) =>
  z.discriminatedUnion('type', [
    z.object({
      type: z.literal('rectangle'),
      data: z.object({ min: point, max: point }),
      score: z.number(),
      trackId: z
        .number()
        .int()
        .optional()
        .describe(
          "camera frames only: the tracked object this box continues, once it has been seen in its profile's tracking.minFrames frames in a row (3 by default; a box scoring its activationScore, 0.5 by default, starts an object, a lower one only continues one)",
        ),
      children,
    }),
    z.object({
      type: z.literal('polygon'),
      data: z.object({ points: z.array(point).min(3) }),
      score: z.number(),
      children,
    }),
    z.object({ type: z.literal('point'), data: z.object({ point }), score: z.number(), children }),
    z.object({ type: z.literal('class'), data: empty, score: z.number(), children }),
  ]);
/**
 * Children `levels` deep: a child stage's answers, their own stages'
 * (MAX_STAGE_DEPTH at most), and at the bottom a pose's keypoints or a
 * mask's box, which have none.
 */
const childrenOf = (levels: number): z.ZodType =>
  z.record(z.string(), z.array(detectionOf(levels === 0 ? empty : childrenOf(levels - 1))));
const detection = detectionOf(
  childrenOf(MAX_STAGE_DEPTH).describe(
    "nested detections by label: a pose's keypoints by name, a mask's box, a child stage's answer on the detection's crop (its classes, or its boxes, polygons and points in the whole image's coordinates)",
  ),
).meta({ id: 'Detection' });
/** The predict answer's schema (frames answer it too). */
export const detectionsByLabel = z.record(z.string(), z.array(detection)).meta({ id: 'Detections' });

export function predictEndpoint(deps: PredictRouteDeps): Endpoint {
  return defineEndpoint({
    method: 'post',
    path: '/v1/models/:modelVersionId/predict',
    tag: 'inference',
    summary: 'run a model version on one image; detections grouped by label',
    description:
      "Runs an Active model version of the caller's organization on one image, sent as a multipart `file` part or as base64 JSON, and answers its detections grouped by label. The query parameters override the version's defaults (model.json); when the queue or the memory budget is full the request is refused with 503 before its body is read.",
    operationId: 'predict',
    auth: 'inferenceKey',
    params: z.object({ modelVersionId: z.string() }),
    query: predictQuery,
    bodyPolicy: 'handler',
    requestDoc: {
      required: true,
      content: {
        'multipart/form-data': {
          schema: { type: 'object', required: ['file'], properties: { file: { type: 'string', format: 'binary' } } },
        },
        'application/json': {
          schema: {
            type: 'object',
            required: ['image'],
            properties: { image: { type: 'string', contentEncoding: 'base64' } },
          },
        },
      },
    },
    responses: {
      200: {
        description: 'detections by label; coordinates are [x, y] fractions of the original image',
        schema: detectionsByLabel,
      },
      400: {
        description:
          'File size is too large / could not parse image / could not parse multipart form / invalid query parameter',
      },
      401: { description: 'Invalid or missing API key.' },
      404: { description: 'model version not found' },
      500: { description: 'could not inference model (version initializing or failed)' },
      503: { description: 'server is busy (Retry-After)' },
    },
    async handler({ params, query, caller, request: req, reply }) {
      const admitted = deps.admission.admit(params.modelVersionId, caller.organizationId);
      const contentType = req.headers['content-type'] ?? '';
      const kind = predictBodyKind(contentType);
      if (!kind) throw notMultipart();
      const options = predictOptions(
        {
          threshold: query.threshold,
          iou: query.iou,
          maxDetections: query.max_detections,
          topK: query.top_k,
          keypointThreshold: query.keypoint_threshold,
          box: query.box,
        },
        admitted.version.config.defaults,
      );
      const limit = predictBodyLimit(kind, deps.maxImageBytes);
      const reserve = Math.min(declaredLength(req) ?? limit, limit);
      const large = reserve > SMALL_BODY_BYTES;
      let pass: PredictPass<DeployedVersion>;
      try {
        pass = deps.admission.enter(admitted, reserve);
      } catch (error) {
        // Shed before a byte is read: a large body is not read only to be dropped.
        reply.error(error, large);
        return undefined;
      }
      // The pass reads the body through its port: attached now, before the first await, as uWS wants.
      const answer = pass.run(
        new HandlerBody(req, reply, limit, large, () => imageSizeCounter(kind, contentType)),
        contentType,
        options,
      );
      reply.onAbort(() => pass.abandon());
      try {
        const answered = await answer;
        // undefined: the client left while held
        if (answered !== undefined)
          reply.send(200, answered.json, 'application/json', childrenSkippedHeader(answered.skipped));
      } catch (error) {
        // Refused while held: a large body was left unread (its connection closes), a small one read through.
        if (pass.state === 'refused') reply.error(error, large);
        else if (error instanceof BodyTooLargeError) {
          // The image's size, counted while the body was dropped; for a body
          // too large to read through, the size its length implies.
          const imageBytes = error.measured ?? (kind === 'json' ? Math.floor((error.bytes * 3) / 4) : error.bytes);
          reply.error(predictErrors.fileTooLarge(imageBytes), error.closeConnection);
        } else throw error;
      }
      return undefined;
    },
  });
}
