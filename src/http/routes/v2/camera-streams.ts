// The latest frame of a camera's stream, for its page in the console: the
// picture the model last saw, as a JPEG, with its boxes and their trackIds.
// Frames live in the memory of the replica that reads the stream
// (ingest/streams/stream-supervisor.ts): another replica answers 404 and
// names the one that does.
import { z } from 'zod';
import type { StreamSupervisor } from '../../../ingest/streams/stream-supervisor.js';
import type { VisionService } from '../../../platform/vision.js';
import { defineEndpoint, respond, type Endpoint } from '../../api.js';
import { ApiError } from '../../errors.js';
import { detectionsByLabel } from '../predict.js';
import { idParam } from './common.js';
import { one } from './response-schemas.js';

export interface CameraStreamRouteDeps {
  streams: StreamSupervisor;
  vision: VisionService;
}

const latestFrameSchema = z
  .strictObject({
    at: z.string().describe('when the frame arrived (ISO 8601)'),
    width: z.number().int(),
    height: z.number().int(),
    image: z.string().describe('the frame as the model saw it (scaled to its input), a JPEG in base64'),
    detections: detectionsByLabel.describe("the frame's detections, each box of a confirmed object with its trackId"),
  })
  .meta({ id: 'StreamFrame' });

export function cameraStreamEndpoints({ streams, vision }: CameraStreamRouteDeps): Endpoint[] {
  return [
    defineEndpoint({
      method: 'get',
      path: '/v2/devices/:device/vision/stream/frame',
      tag: 'devices',
      summary: "the latest frame of a camera's stream, with its boxes",
      description:
        "Answers the last frame of the camera's stream run through the model, as a JPEG (base64) at the size the model saw it, with its detections (each box of a confirmed object with its trackId). 404 when the device has no stream, no frame was run yet, or another replica reads the stream (the message names it).",
      auth: 'organization',
      action: 'devices:read',
      params: idParam('device'),
      responses: {
        200: { description: 'the frame', schema: one(latestFrameSchema) },
        404: { description: 'no such device, no stream, no frame yet, or another replica reads it' },
      },
      async handler({ params, caller }) {
        const deviceId = params.device as string;
        const stream = streams.streamOf(caller.organizationId, deviceId);
        const frame = await stream?.latestFrame();
        if (!frame) {
          const profile = await vision.get(caller.organizationId, deviceId);
          const status = await vision.streamStatus(caller.organizationId, profile);
          const why = !status
            ? 'this camera does not stream'
            : stream
              ? 'no frame of the stream has been run yet'
              : status.replica
                ? `the stream is read by replica ${status.replica}, not by this one`
                : `the stream is ${status.state}${status.reason ? `: ${status.reason}` : ''}`;
          throw new ApiError(404, 'no frame', why);
        }
        return respond.data({
          at: frame.at.toISOString(),
          width: frame.width,
          height: frame.height,
          image: frame.jpeg.toString('base64'),
          detections: frame.detections,
        });
      },
    }),
  ];
}
