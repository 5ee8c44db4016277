// POST /v1/iot/frames: a camera (a device with a vision profile) sends one
// image as predict takes it, and the frame becomes an event carrying its
// detections (ingest/frames.ts). The frame's id and time come in the query,
// so the body is exactly predict's. Authenticated before the body is read;
// the body is buffered within the shared memory budget, in the device
// organization's part, then runs through predict's admission.
import { z } from 'zod';
import type { FrameIngest } from '../../ingest/frames.js';
import { predictBodyKind, predictBodyLimit } from '../../inference/pipeline/request-body.js';
import { readClientTimeText } from '../../lib/client-time.js';
import { ApiError } from '../errors.js';
import { defineEndpoint, respond, type Endpoint } from '../api.js';
import { detectionsByLabel, notMultipart } from './predict.js';

export interface FrameRouteDeps {
  frames: FrameIngest;
  maxImageBytes: number;
}

/** A time as epoch milliseconds or strict ISO 8601 text, between 2000-01-01 and a day from now (lib/client-time.ts). */
const frameTime = z
  .string()
  .max(64)
  .transform((raw, ctx) => {
    const time = readClientTimeText(raw, true);
    if ('problem' in time) {
      ctx.addIssue({ code: 'custom', message: time.problem });
      return z.NEVER;
    }
    return new Date(time.ms);
  });

const frameQuery = z.object({
  frameId: z
    .string()
    .min(1)
    .max(128)
    .optional()
    .describe("the camera's id of the frame: a retry with the same id is stored once"),
  time: frameTime
    .optional()
    .describe(
      'when the frame was taken (the event’s client time): epoch milliseconds, or ISO 8601 with a date and a zone, between 2000-01-01 and a day from now',
    ),
});

const frameAnswer = z.object({
  eventId: z.string().describe("the frame's event (for a retried frame id, the one stored first)"),
  detections: detectionsByLabel.describe("the predict answer (for a retried frame id, the stored event's)"),
  frameNotKept: z
    .string()
    .optional()
    .describe(
      "why the frame's image was not kept, when its vision profile keeps frames: over 90% of a kept-frames quota, its end not found, or the store failed",
    ),
});

export function frameEndpoints({ frames, maxImageBytes }: FrameRouteDeps): Endpoint[] {
  const limit = predictBodyLimit('json', maxImageBytes);
  return [
    defineEndpoint({
      method: 'post',
      path: '/v1/iot/frames',
      tag: 'ingestion',
      summary: "send a camera's frame: its detections are answered and stored as an event",
      description:
        "Runs one image from a camera (a device with a vision profile, PUT /v2/devices/{device}/vision) through the profile's model version, with the same admission and limits as predict, stores one event carrying the detections (each with the zones it lies in, and per zone the count of each label), and answers the event id and the detections, once committed. A frame id already stored for the device is answered from its event, without running the frame again.",
      operationId: 'iotFrame',
      auth: 'device',
      query: frameQuery,
      bodyLimit: limit,
      errors: {
        bodyTooLarge: () =>
          new ApiError(400, 'File size is too large', `the body is over the limit of ${limit} bytes (MAX_IMAGE_BYTES)`),
      },
      content: {
        parse: (bytes, req) => {
          const contentType = req.headers['content-type'] ?? '';
          if (!predictBodyKind(contentType)) throw notMultipart();
          return { bytes, contentType };
        },
        doc: {
          'multipart/form-data': { schema: z.object({ file: z.string().meta({ format: 'binary' }) }) },
          'application/json': { schema: z.object({ image: z.string().meta({ contentEncoding: 'base64' }) }) },
        },
      },
      responses: {
        200: { description: 'the event id and the detections, once the event is committed', schema: frameAnswer },
        400: { description: 'no image, not an image, a body over the limit, or the device has no vision profile' },
        401: { description: 'missing, forged or expired device token' },
        404: { description: "the profile's model version no longer exists" },
        429: { description: 'over the device rate (Retry-After)' },
        500: { description: "the profile's model version is initializing or failed" },
        503: { description: 'server is busy (Retry-After)' },
      },
      async handler({ body, query, caller }) {
        const answer = await frames.submit(caller, {
          body: body.bytes,
          contentType: body.contentType,
          frameId: query.frameId,
          time: query.time,
        });
        return respond.bare(answer);
      },
    }),
  ];
}
