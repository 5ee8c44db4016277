// The response bodies of the /v2 endpoints, one schema per resource, as the
// presenters build them and JSON writes them (dates as ISO 8601 strings,
// absent optional fields left out). Each endpoint declares its success body
// from these; /openapi.json shows the resources as named components (`.meta
// ({id})`), and RESPONSE_VALIDATION=true checks every answer against them.
// Resources are strict: a field a presenter adds without its schema is a
// mismatch, so the document cannot fall behind the handlers.
import { z, type ZodType } from 'zod';
import { CHANNEL_TYPES } from '../../../platform/channels.js';
import { OUTPUT_FORMATS, stagesSchema } from '../../../inference/versions/model-config.js';
import { MAX_DETECTIONS_LIMIT, TOP_K_LIMIT } from '../../../inference/predict-options.js';
import { ROLES } from '../../../platform/permissions.js';
import { ACTION_TYPES } from '../../../platform/rules/actions.js';
import { schemaFields } from '../../../platform/payload-validation.js';

const int = () => z.number().int();
/** A date as JSON writes it. */
const timestamp = z.iso.datetime({ offset: true }).meta({ id: 'Timestamp', description: 'ISO 8601 date and time' });
const role = z.enum(ROLES as ['admin', 'project_manager', 'member']);
/** Free-form JSON object stored as given. */
const jsonObject = z.record(z.string(), z.unknown());

// ---------------------------------------------------------------- envelopes

/** respond.data: {data} */
export const one = (data: ZodType) => z.strictObject({ data });
/** respond.list: {data, meta} */
export const list = (item: ZodType, meta: ZodType = countMeta) => z.strictObject({ data: z.array(item), meta });
export const countMeta = z.strictObject({ count: int().describe('items in data') });
export const totalsMeta = z.strictObject({
  filteredTotal: int().describe('items matching the filter too'),
  total: int().describe('items in the scope'),
});

// ---------------------------------------------------------------- accounts

export const tokenResponse = z.strictObject({ token: z.string().describe('access token (JWT)') }).meta({ id: 'Token' });

const permissions = z.strictObject({ admin: z.boolean() });

export const organizationSchema = z
  .strictObject({
    id: z.string(),
    name: z.string(),
    permissions: permissions.optional().describe('with role: the caller’s'),
    role: role.optional().describe('the caller’s role in the organization (left out by rename)'),
    createdAt: timestamp,
    updatedAt: timestamp,
  })
  .meta({ id: 'Organization' });

export const userSchema = z
  .strictObject({
    id: z.string(),
    email: z.string(),
    name: z.string(),
    verifiedEmail: z.boolean(),
    inviteOutstanding: z.boolean(),
    locale: jsonObject.describe('{timezone?, …} as the user set it'),
    role: role.optional().describe('the role in the organization of the token, when it has one'),
    permissions: permissions.optional(),
    createdAt: timestamp,
    updatedAt: timestamp,
  })
  .meta({ id: 'User' });

// ---------------------------------------------------------------- channels, schemas, projects, gateways

export const channelKeySchema = z
  .strictObject({
    id: z.string(),
    prefix: z.string().describe('the first characters of the key'),
    enabled: z.boolean(),
    createdAt: timestamp,
    updatedAt: timestamp,
  })
  .meta({ id: 'ChannelApiKey' });

export const newChannelKeySchema = channelKeySchema
  .extend({ apiKey: z.string().describe('the key itself: shown in this answer only') })
  .meta({ id: 'NewChannelApiKey' });

export const channelSchema = z
  .strictObject({
    id: z.string(),
    organizationId: z.string(),
    schemaId: z.string().nullable(),
    name: z.string(),
    type: z.enum(CHANNEL_TYPES),
    method: z.string().nullable(),
    credentials: z.union([z.string(), jsonObject]).nullable().describe('push-notification settings, as given'),
    projectIds: z.array(z.string()),
    enabled: z.boolean(),
    createdAt: timestamp,
    updatedAt: timestamp,
  })
  .meta({ id: 'Channel' });

export const newChannelSchema = channelSchema
  .extend({ apiKeys: z.array(newChannelKeySchema).describe('the first API key of the channel, shown this once') })
  .meta({ id: 'NewChannel' });

export const payloadSchemaSchema = z
  .strictObject({
    id: z.string(),
    type: z.literal('default'),
    organizationId: z.string(),
    name: z.string(),
    format: z.literal('json'),
    fields: schemaFields,
    additionalProperties: z
      .boolean()
      .describe('false: keys at the root of an event that `fields` do not declare are refused'),
    createdAt: timestamp,
    updatedAt: timestamp,
  })
  .meta({ id: 'Schema' });

export const projectSchema = z
  .strictObject({
    id: z.string(),
    name: z.string(),
    organizationId: z.string(),
    channelIds: z.array(z.string()),
    enabled: z.boolean(),
    createdAt: timestamp,
    updatedAt: timestamp,
  })
  .meta({ id: 'Project' });

export const gatewaySchema = z
  .strictObject({
    id: z.string(),
    organizationId: z.string(),
    name: z.string(),
    createdAt: timestamp,
    updatedAt: timestamp,
    syncedAt: timestamp.nullable().describe('null until the gateway first syncs'),
  })
  .meta({ id: 'Gateway' });

// ---------------------------------------------------------------- devices, landmarks

export const deviceSchema = z
  .strictObject({
    id: z.string(),
    name: z.string().nullable(),
    model: z.string().nullable(),
    type: z.string().nullable(),
    sensors: z.array(z.string()),
    channelId: z.string(),
    organizationId: z.string(),
    tags: z.array(z.string()),
    properties: jsonObject.describe(
      'as sent at registration: manufacturer, model, os, osVersion, softwareVersion, type, …',
    ),
    attributes: jsonObject,
    createdAt: timestamp,
    updatedAt: timestamp,
    lastSeenAt: timestamp.nullable().describe('when its last event arrived; null before its first'),
    lastLocation: z
      .strictObject({
        latitude: z.number(),
        longitude: z.number(),
        accuracy: z.number().optional().describe('metres, as the device reported it'),
        timestamp: z.number().optional().describe('epoch milliseconds, as the device reported it'),
      })
      .nullable()
      .describe(
        'the newest location its events carried (mobile locations[], or IoT latitude/longitude); null before any',
      ),
    insideLandmarkIds: z
      .array(z.string())
      .describe(
        "the landmarks watched by the organization's rules that this location is inside, as the rules engine last evaluated it",
      ),
    camera: z.boolean().describe('whether it is a camera: it has a vision profile (GET /v2/devices/{device}/vision)'),
    connection: z
      .strictObject({
        protocol: z.literal('mqtt'),
        connectedAt: timestamp.describe('when the connection was accepted (its CONNACK)'),
        protocolVersion: z.number().int().describe('the MQTT protocol level: 4 (3.1.1) or 5 (3 for 3.1)'),
      })
      .nullable()
      .describe(
        'the connection it holds open to a live server of the database (MQTT), the earliest if several; null when none (an addition: docs/CONTRACT.md#diff-additions-v2)',
      ),
  })
  .meta({ id: 'Device' });

const imagePoint = z.tuple([z.number().min(0).max(1), z.number().min(0).max(1)]);
const placeName = z.string().regex(/^[A-Za-z_][A-Za-z0-9_]{0,63}$/);
const anchor = z
  .enum(['center', 'bottom'])
  .optional()
  .describe(
    'the point of a box it follows: its centre (default), or the middle of its bottom edge, where an object stands',
  );

/** A zone of a camera's image: a named polygon of [x, y] fractions (0-1, x first), as the predict answer places detections. */
export const imageZoneSchema = z
  .strictObject({
    name: placeName.describe('an identifier, so rules can name it (event.zoneCounts.<name>.<label>)'),
    polygon: z.array(imagePoint).min(3).max(64).describe('[x, y] fractions of the image, x first'),
    anchor,
    inertia: z
      .number()
      .int()
      .min(1)
      .max(100)
      .optional()
      .describe('frames in a row a tracked object must be inside before it is in the zone (default 1)'),
  })
  .meta({ id: 'ImageZone' });

/** A counting line of a camera's image: `in` is from the left of start → end to its right, as drawn (x right, y down). */
export const imageLineSchema = z
  .strictObject({
    name: placeName.describe('an identifier, so rules and counts can name it'),
    line: z
      .tuple([imagePoint, imagePoint])
      .refine(([a, b]) => a[0] !== b[0] || a[1] !== b[1], 'the two ends must differ')
      .describe(
        '[start, end], each [x, y] fractions of the image; crossing from its left to its right as drawn is `in`',
      ),
    anchor,
  })
  .meta({ id: 'ImageLine' });

/** The settings of a camera's object tracker; each left out is the tracker's default. */
export const trackingSchema = z
  .strictObject({
    activationScore: z
      .number()
      .min(0)
      .max(1)
      .optional()
      .describe('a box scoring this or more may start an object and is matched first (default 0.5)'),
    lostFrames: z
      .number()
      .int()
      .min(0)
      .max(1000)
      .optional()
      .describe('frames an object may go unseen before it ends (default 30)'),
    matchIou: z
      .number()
      .min(0.01)
      .max(1)
      .optional()
      .describe(
        "least overlap (IoU) of a box with an object's predicted box for it to continue the object (default 0.2)",
      ),
    minFrames: z
      .number()
      .int()
      .min(1)
      .max(100)
      .optional()
      .describe('frames in a row an object must be seen before it counts and its boxes carry its trackId (default 3)'),
  })
  .meta({ id: 'Tracking' });

/** Predict options a camera's profile sets; each overrides its model version's default. */
export const visionOptionsSchema = z
  .strictObject({
    threshold: z.number().min(0).max(1).optional(),
    iou: z.number().min(0).max(1).optional(),
    maxDetections: z.number().int().min(1).max(MAX_DETECTIONS_LIMIT).optional(),
    topK: z.number().int().min(1).max(TOP_K_LIMIT).optional(),
    keypointThreshold: z.number().min(0).max(1).optional(),
  })
  .meta({ id: 'VisionOptions' });

/** A camera's video stream, as a vision profile sets it. */
export const streamInputSchema = z
  .strictObject({
    url: z
      .string()
      .min(1)
      .max(2048)
      .describe(
        "rtsp://, rtsps://, http(s):// (MJPEG, MPEG-TS, HLS: playlist and segments fetched by the server) or file:// under the server's STREAM_FILES_DIR; credentials in the userinfo (sealed at rest, shown masked; the masked URL sent back keeps them)",
      ),
    fps: z.number().min(0.1).max(30).optional().describe('frames a second run through the model (default 5)'),
    enabled: z.boolean().optional().describe('whether a replica reads it (default true)'),
  })
  .meta({ id: 'CameraStreamInput' });

const streamStatusSchema = z
  .strictObject({
    state: z.enum(['connecting', 'running', 'retrying', 'stopped']),
    reason: z.string().optional().describe('why it is retrying, stopped or still connecting'),
    replica: z.string().optional().describe('the replica reading it'),
    stats: z
      .record(z.string(), z.unknown())
      .optional()
      .describe(
        'fpsIn, fpsOut, framesIn, framesOut, drops, refused, failed, latencyMs {p50, p99}, objects, objectEvents, trackingMs, restarts, since',
      ),
    updatedAt: timestamp.optional(),
  })
  .meta({ id: 'CameraStreamStatus' });

export const visionSchema = z
  .strictObject({
    deviceId: z.string(),
    modelVersionId: z.string().describe('the model version its frames run through'),
    options: visionOptionsSchema,
    zones: z.array(imageZoneSchema),
    lines: z.array(imageLineSchema),
    tracking: trackingSchema,
    keepFrames: z.boolean().describe("whether its frames' images are kept (GET /v2/devices/{device}/frames/{event})"),
    stream: z
      .strictObject({
        url: z.string().describe('its password masked'),
        fps: z.number(),
        enabled: z.boolean(),
        status: streamStatusSchema.optional(),
      })
      .optional()
      .describe('the video the server reads from the camera, when it streams, and its state'),
    updatedAt: timestamp,
  })
  .meta({
    id: 'VisionProfile',
    description: "a camera's vision profile: what its frames (POST /v1/iot/frames) are run through, and its zones",
  });

export const objectCountsSchema = z
  .strictObject({
    deviceId: z.string(),
    from: timestamp.describe('the start of the range (inclusive)'),
    to: timestamp.describe('the end of the range (exclusive)'),
    interval: z.enum(['hour', 'day']),
    buckets: z
      .array(
        z.strictObject({
          start: timestamp.describe('the start of the hour or day (UTC)'),
          crossings: z
            .array(
              z.strictObject({
                line: z.string(),
                direction: z.enum(['in', 'out']),
                count: int().describe('crossings of the line in this direction'),
              }),
            )
            .describe('per line and direction, by line'),
          entries: z
            .array(
              z.strictObject({
                zone: z.string(),
                label: z.string(),
                count: int().describe('objects of this label that entered the zone'),
              }),
            )
            .describe('per zone and label, by zone'),
        }),
      )
      .describe('the hours or days with something counted, in time order'),
  })
  .meta({
    id: 'ObjectCounts',
    description:
      "a camera's object events counted per hour or day of their frames' times: the lines crossed and the zones entered",
  });

const latLon = z.strictObject({ lat: z.number(), lon: z.number() });
const lonLat = z.tuple([z.number(), z.number()]);

export const landmarkSchema = z
  .strictObject({
    id: z.string(),
    name: z.string(),
    address: z.string().nullable(),
    type: z.literal('geometry'),
    projectId: z.string(),
    organizationId: z.string(),
    tags: z.array(z.string()),
    attributes: jsonObject,
    model: z
      .union([
        z.strictObject({
          type: z.literal('circle'),
          geometry: z.strictObject({ center: latLon, radius: z.number().describe('metres') }),
        }),
        z.strictObject({ type: z.literal('rectangle'), geometry: z.strictObject({ nw: latLon, se: latLon }) }),
        z.strictObject({ type: z.literal('polygon'), geometry: z.strictObject({ points: z.array(latLon) }) }),
      ])
      .describe('Gen A/B spelling'),
    shape: z
      .union([
        z.strictObject({
          type: z.literal('circle'),
          radius: z.number().describe('metres'),
          coordinates: lonLat.describe('[lon, lat]'),
        }),
        z.strictObject({
          type: z.literal('envelope'),
          coordinates: z.tuple([lonLat, lonLat]).describe('[[minLon, maxLat], [maxLon, minLat]]'),
        }),
        z.strictObject({
          type: z.literal('polygon'),
          coordinates: z.array(z.array(lonLat)).describe('one closed ring of [lon, lat]'),
        }),
      ])
      .describe('Gen C spelling (Elasticsearch geo_shape)'),
    createdAt: timestamp,
    updatedAt: timestamp,
  })
  .meta({ id: 'Landmark' });

// ---------------------------------------------------------------- rules, deliveries, events

const conditionNode = z
  .looseObject({ type: z.string() })
  .describe('a Gen B condition node: and / or / not with items, or a leaf');

export const ruleSchema = z
  .strictObject({
    id: z.string(),
    projectId: z.string(),
    organizationId: z.string(),
    name: z.string(),
    description: z.string(),
    type: z.enum(['cloud', 'edge']),
    enabled: z.boolean(),
    generator: z.string(),
    conditionsObject: z.array(conditionNode).describe('[root] or [] when the rule has no conditions'),
    conditions: z.string().describe('the expression string'),
    actions: z
      .array(z.looseObject({ type: z.enum(ACTION_TYPES) }))
      .describe('webhook passwords, secrets and header values are masked'),
    properties: jsonObject.describe('{timezone?, …}'),
    throttleInSeconds: int(),
    channelIds: z.array(z.string()),
    gatewayIds: z.array(z.string()),
    conditionsAndActions: z.array(z.never()).max(0).describe('always empty'),
    createdAt: timestamp,
    updatedAt: timestamp,
  })
  .meta({ id: 'Rule' });

const ruleWarningSchema = z
  .strictObject({
    code: z
      .enum(['unknown_zone', 'unknown_line', 'unknown_label', 'webhook_blocked'])
      .describe(
        'unknown_zone: no camera of the project has the zone; unknown_line: nor the line; unknown_label: no model the organization can run has the label; webhook_blocked: the URL is an internal address WEBHOOK_ALLOWED_HOSTS does not allow',
      ),
    message: z.string().describe('a full sentence'),
    field: z.string().optional().describe('the field it is about, e.g. actions.0.url'),
    suggestions: z.array(z.string()).optional().describe('the near matches, nearest first'),
  })
  .meta({ id: 'RuleWarning' });

const ruleWarnings = z
  .array(ruleWarningSchema)
  .describe('what will not work as written (the rule is valid, and saved, all the same); empty when nothing');

/** A rule as create and PATCH answer it: with the warnings of what was saved. */
export const savedRuleSchema = ruleSchema.extend({ warnings: ruleWarnings }).meta({ id: 'SavedRule' });

export const conditionsCheckSchema = z
  .strictObject({
    valid: z.literal(true),
    conditions: z.string().describe('the expression string'),
    conditionsObject: z.array(conditionNode),
    timezone: z.string().optional().describe('properties.timezone, when given'),
    matches: z
      .boolean()
      .optional()
      .describe('when an object form and a conditions string are both given: whether they say the same'),
    warnings: ruleWarnings,
  })
  .meta({ id: 'ConditionsCheck' });

export const ruleVocabularySchema = z
  .strictObject({
    zones: z.array(z.string()).describe("the zones of the project's cameras, sorted"),
    lines: z.array(z.string()).describe("the counting lines of the project's cameras, sorted"),
    labels: z.array(z.string()).describe('the labels of every model version the organization can run, sorted'),
  })
  .meta({ id: 'RuleVocabulary' });

const deliveryAttemptSchema = z
  .strictObject({
    attempt: int(),
    startedAt: timestamp,
    durationMs: int(),
    outcome: z
      .enum(['success', 'retry', 'failure', 'queued'])
      .describe(
        'queued: an mqtt command stored for its device; success: a webhook answered 2xx, a command acknowledged (QoS 1) or written (QoS 0); retry: tried again later (a command: its connection closed before the PUBACK); failure: for good (a command: expired)',
      ),
    statusCode: int().nullable(),
    error: z.string().nullable(),
    request: z
      .looseObject({
        method: z.string().optional(),
        url: z.string().optional(),
        headers: z.record(z.string(), z.string()).optional(),
        commandId: z.string().optional(),
        topic: z.string().optional(),
        qos: int().optional(),
      })
      .describe(
        'the request made (a webhook: method, URL, headers, custom header values masked; an mqtt command: commandId, topic, qos)',
      ),
  })
  .meta({ id: 'DeliveryAttempt' });

export const deliverySchema = z
  .strictObject({
    id: z.string(),
    actionId: z.string(),
    type: z.string().describe('the action type'),
    deviceId: z.string().nullable(),
    eventId: z.string().nullable(),
    status: z.enum(['pending', 'succeeded', 'failed']),
    attempts: int(),
    lastError: z.string().nullable(),
    createdAt: timestamp,
    finishedAt: timestamp.nullable(),
    deliveries: z
      .array(deliveryAttemptSchema)
      .describe('webhook attempts and mqtt command steps (queued, each send, its outcome), first first'),
  })
  .meta({ id: 'Delivery' });

export const eventSchema = z
  .strictObject({
    id: z.string(),
    organizationId: z.string(),
    channelId: z.string(),
    deviceId: z.string(),
    serverReceivedAt: timestamp,
    clientSentAt: timestamp.nullable(),
    payload: z.unknown().describe('the event as ingested'),
  })
  .meta({ id: 'Event' });

export const metricBucketSchema = z
  .strictObject({
    value: z.number().nullable().describe('the aggregate; null when no event had a number at metricPath'),
    count: int().describe('events counted'),
    ts: timestamp.nullable().describe('start of the bucket (interval false: `from`, or null)'),
  })
  .meta({ id: 'MetricBucket' });

export const metricsMeta = totalsMeta.extend({
  interval: z.union([z.enum(['1h', '1d']), z.literal(false)]),
  timezone: z.string(),
  operation: z.enum(['avg', 'min', 'max', 'sum', 'count']),
});

// ---------------------------------------------------------------- inference keys, models

export const inferenceKeySchema = z
  .strictObject({
    id: z.string(),
    name: z.string(),
    prefix: z.string().describe('the first characters of the key'),
    enabled: z.boolean(),
    createdBy: z.string().nullable().describe('the user who created it'),
    createdAt: timestamp,
    updatedAt: timestamp,
  })
  .meta({ id: 'InferenceKey' });

export const newInferenceKeySchema = inferenceKeySchema
  .extend({ apiKey: z.string().describe('the key itself: shown in this answer only') })
  .meta({ id: 'NewInferenceKey' });

export const modelVersionSchema = z
  .strictObject({
    id: z.string(),
    modelId: z.string(),
    organizationId: z.string(),
    version: int(),
    name: z.string(),
    status: z
      .enum(['Initializing', 'Active', 'Failed', 'Disabled'])
      .describe('Disabled: kept, but served by no server (npm run model -- disable) until enabled'),
    statusReason: z.string().nullable().describe('why it failed'),
    executionProvider: z.string().nullable().describe('where this server runs it, once loaded'),
    preparation: z
      .array(z.string())
      .nullable()
      .describe(
        "how this server runs the model, once loaded: the graph rewrite's parts (uint8 pixels in, a dense head's candidates out) and why any was left out",
      ),
    public: z.boolean(),
    labels: z.array(z.string()),
    input: z.strictObject({ width: int(), height: int() }),
    outputFormat: z.enum([...OUTPUT_FORMATS, 'auto']),
    defaults: z
      .strictObject({
        threshold: z.number().describe('the score threshold predict applies when the request sets none'),
      })
      .describe("predict's defaults for this version"),
    replicas: z
      .strictObject({
        active: int().describe('live replicas serving it'),
        failed: int().describe('live replicas that could not load it'),
        total: int().describe('live replicas (a recent heartbeat): those neither active nor failed are loading it'),
      })
      .describe("the version on every server sharing the database; `status` is the answering server's own"),
    stages: stagesSchema.describe(
      "child stages: each detection with one of a stage's labels is cropped and run through its version, whose answer is nested in the detection's children",
    ),
    createdAt: timestamp,
    updatedAt: timestamp,
  })
  .meta({ id: 'ModelVersion' });

export const modelSchema = z
  .strictObject({
    id: z.string(),
    organizationId: z.string(),
    name: z.string(),
    description: z.string(),
    versionCount: int().optional().describe('in lists only'),
    createdAt: timestamp,
    updatedAt: timestamp,
  })
  .meta({ id: 'Model' });

export const modelWithVersionsSchema = modelSchema
  .extend({ versions: z.array(modelVersionSchema) })
  .meta({ id: 'ModelWithVersions' });
