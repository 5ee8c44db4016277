// The shapes the console reads from the API. The /v2 ones are inferred from
// the server's response schemas (src/http/routes/v2/response-schemas.ts, what
// GET /openapi.json shows and RESPONSE_VALIDATION checks), so they cannot
// drift from what the server answers. The imports are type-only: erased by
// the build, nothing of the server (nor zod) reaches the bundle.
import type { z } from 'zod';
import type {
  channelKeySchema,
  channelSchema,
  deliverySchema,
  deviceSchema,
  eventSchema,
  inferenceKeySchema,
  landmarkSchema,
  modelSchema,
  modelVersionSchema,
  modelWithVersionsSchema,
  newChannelKeySchema,
  newChannelSchema,
  newInferenceKeySchema,
  organizationSchema,
  ruleSchema,
  totalsMeta,
  userSchema,
  visionSchema,
} from '../../src/http/routes/v2/response-schemas.js';

/** GET /v2/users/me: the user, with their role when the token names an organization */
export type Me = z.infer<typeof userSchema>;

export type Organization = z.infer<typeof organizationSchema>;

export type Model = z.infer<typeof modelSchema>;
export type ModelVersion = z.infer<typeof modelVersionSchema>;
/** GET /v2/models/:id */
export type ModelWithVersions = z.infer<typeof modelWithVersionsSchema>;
/** A version's child stage: its detections with `labels` cropped and run through `modelVersionId` (PUT /v2/models/:model/versions/:version/stages). */
export type Stage = ModelVersion['stages'][number];

export type ChannelApiKey = z.infer<typeof channelKeySchema>;
export type NewChannelApiKey = z.infer<typeof newChannelKeySchema>;
export type InferenceKey = z.infer<typeof inferenceKeySchema>;
export type NewInferenceKey = z.infer<typeof newInferenceKeySchema>;
/** A channel's key or an inference key, as the key manager lists them (only inference keys have a name). */
export type ApiKey = ChannelApiKey | InferenceKey;
export type NewApiKey = NewChannelApiKey | NewInferenceKey;

export type Channel = z.infer<typeof channelSchema>;
/** POST /v2/channels: the channel, with its first API key */
export type NewChannel = z.infer<typeof newChannelSchema>;

export type Device = z.infer<typeof deviceSchema>;
export type LastLocation = NonNullable<Device['lastLocation']>;

/** An ingested event, as the search and the live tail give it. */
export type DeviceEvent = z.infer<typeof eventSchema>;

/** A camera's vision profile (GET /v2/devices/:id/vision). */
export type VisionProfile = z.infer<typeof visionSchema>;
export type ImageZone = VisionProfile['zones'][number];
/** A counting line: `in` is from the left of start → end to its right, as drawn (x right, y down). */
export type ImageLine = VisionProfile['lines'][number];
/** The video a camera streams, as the profile shows it: its URL's password masked (`***`), its status. */
export type CameraStream = NonNullable<VisionProfile['stream']>;
export type StreamStatus = NonNullable<CameraStream['status']>;
/**
 * A stream's figures (ingest/streams/camera-stream.ts StreamStats), which
 * the schema leaves open: read each as it may be absent.
 */
export interface StreamStats {
  framesIn?: number;
  framesOut?: number;
  drops?: number;
  refused?: number;
  failed?: number;
  fpsIn?: number;
  fpsOut?: number;
  latencyMs?: { p50: number; p99: number } | null;
  objects?: number;
  objectEvents?: number;
  restarts?: number;
  since?: string;
}

export type Landmark = z.infer<typeof landmarkSchema>;
export type Rule = z.infer<typeof ruleSchema>;
export type Delivery = z.infer<typeof deliverySchema>;

// /v1 predict (its schema is the route's own, src/http/routes/predict.ts).
type Point = [number, number];

/** One detection of a predict answer; what `data` holds depends on `type` (docs/WALKTHROUGH.md, "Classifiers, pose and segmentation models"). */
export type Detection = (
  | { type: 'rectangle'; data: { min: Point; max: Point } }
  | { type: 'polygon'; data: { points: Point[] } }
  | { type: 'point'; data: { point: Point } }
  | { type: 'class'; data: Record<string, never> }
) & {
  score: number;
  /**
   * nested detections, label-keyed: a pose's keypoints, a polygon's box
   * (box=true), and the answers of the version's child stages under the
   * child's labels (classes; shapes in the whole image's fractions)
   */
  children: Prediction;
};

/** POST /v1/models/:id/predict: detections by label */
export type Prediction = Record<string, Detection[]>;

/** GET /v2/devices/:id/vision/stream/frame: the latest frame of a camera's stream, its boxes with their trackIds. */
export interface StreamFrame {
  /** when it arrived (ISO 8601) */
  at: string;
  width: number;
  height: number;
  /** a JPEG, in base64 */
  image: string;
  detections: Record<string, Array<Detection & { trackId?: number }>>;
}

/** respond.data's envelope: {data} */
export interface Data<T> {
  data: T;
}

/** A search's page: {data, meta: {total, filteredTotal}} (respond.list with totalsMeta) */
export interface Page<T> {
  data: T[];
  meta: z.infer<typeof totalsMeta>;
}
