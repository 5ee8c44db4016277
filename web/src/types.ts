// The shapes the console reads from the API (GET /openapi.json has them all);
// only the fields it shows.
export type Role = 'admin' | 'project_manager' | 'member';

export interface Me {
  email: string;
  name: string;
  role?: Role;
}

export interface Organization {
  id: string;
  name: string;
}

export interface Model {
  id: string;
  name: string;
  description: string;
}

export type VersionStatus = 'Initializing' | 'Active' | 'Failed';

export interface ModelVersion {
  id: string;
  version: number;
  name: string;
  status: VersionStatus;
  statusReason: string | null;
  labels: string[];
  input: { width: number; height: number };
  defaults: { threshold: number };
}

export interface ApiKey {
  id: string;
  name?: string;
  prefix: string;
  enabled: boolean;
  createdAt: string;
}

export type NewApiKey = ApiKey & { apiKey: string };

export interface Channel {
  id: string;
  name: string;
  type: string;
  enabled: boolean;
}

type Point = [number, number];

/** One detection of a predict answer; what `data` holds depends on `type` (README, "Classifiers, pose and segmentation models"). */
export type Detection = (
  | { type: 'rectangle'; data: { min: Point; max: Point } }
  | { type: 'polygon'; data: { points: Point[] } }
  | { type: 'point'; data: { point: Point } }
  | { type: 'class'; data: Record<string, never> }
) & {
  score: number;
  /** nested detections, label-keyed: a pose's keypoints, a polygon's box (box=true) */
  children: Prediction;
};

/** POST /v1/models/:id/predict: detections by label */
export type Prediction = Record<string, Detection[]>;

export interface Data<T> {
  data: T;
}

export interface LastLocation {
  latitude: number;
  longitude: number;
  /** metres */
  accuracy?: number;
  /** epoch milliseconds, the device's */
  timestamp?: number;
}

export interface Device {
  id: string;
  name: string | null;
  model: string | null;
  type: string | null;
  sensors: string[];
  channelId: string;
  tags: string[];
  properties: Record<string, unknown>;
  attributes: Record<string, unknown>;
  createdAt: string;
  updatedAt: string;
  lastSeenAt: string | null;
  lastLocation: LastLocation | null;
  insideLandmarkIds: string[];
}

/** An ingested event, as the search and the live tail give it. */
export interface DeviceEvent {
  id: string;
  channelId: string;
  deviceId: string;
  serverReceivedAt: string;
  clientSentAt: string | null;
  payload: unknown;
}

/** A search's page: {data, meta: {total, filteredTotal}} */
export interface Page<T> {
  data: T[];
  meta: { total: number; filteredTotal: number };
}
