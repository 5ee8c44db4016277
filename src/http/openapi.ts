// Builds the OpenAPI 3.1 document of the whole server from the endpoint
// declarations themselves (the schemas that validate requests), plus the
// predict route, which has its own hand-tuned front end.
import { z, type ZodType } from 'zod';
import type { Endpoint } from './api.js';

type JsonSchema = Record<string, unknown>;

/** Named schemas ($defs of recursive types) found while converting; hoisted into components.schemas. */
let sharedSchemas: Record<string, JsonSchema> = {};

function schemaOf(type: ZodType): JsonSchema {
  const schema = z.toJSONSchema(type, { io: 'input', unrepresentable: 'any' }) as JsonSchema;
  delete schema.$schema;
  const defs = (schema.$defs as Record<string, JsonSchema> | undefined) ?? {};
  delete schema.$defs;
  const moved = JSON.parse(JSON.stringify({ schema, defs }).replaceAll('"#/$defs/', '"#/components/schemas/')) as {
    schema: JsonSchema;
    defs: Record<string, JsonSchema>;
  };
  Object.assign(sharedSchemas, moved.defs);
  return moved.schema;
}

const errorSchema: JsonSchema = {
  type: 'object',
  required: ['status', 'message'],
  properties: { status: { type: 'integer' }, message: { type: 'string' }, error: { type: 'string' } },
};

function parameters(endpoint: Endpoint): JsonSchema[] {
  const out: JsonSchema[] = [];
  for (const [location, type] of [['path', endpoint.params], ['query', endpoint.query]] as const) {
    if (!type) continue;
    const schema = schemaOf(type);
    const required = new Set((schema.required as string[] | undefined) ?? []);
    for (const [name, property] of Object.entries((schema.properties as Record<string, JsonSchema>) ?? {})) {
      out.push({ name, in: location, required: location === 'path' || required.has(name), schema: property });
    }
  }
  return out;
}

function operation(endpoint: Endpoint): JsonSchema {
  const responses: Record<string, JsonSchema> = {};
  for (const [status, doc] of Object.entries(endpoint.responses ?? { 200: { description: 'success' } })) {
    responses[status] = doc.schema
      ? { description: doc.description, content: { 'application/json': { schema: schemaOf(doc.schema) } } }
      : { description: doc.description };
  }
  const errors: Record<number, string> = { 400: 'invalid request (the offending field is named in `error`)' };
  if (endpoint.auth !== 'none') {
    errors[401] = 'missing, invalid or expired token';
    errors[403] = 'the role of the caller does not allow this';
  }
  if (endpoint.params) errors[404] = 'not found in the organization of the token';
  for (const [status, description] of Object.entries(errors)) {
    responses[status] ??= { description, content: { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } } };
  }
  const op: JsonSchema = {
    tags: [endpoint.tag],
    summary: endpoint.summary,
    operationId: `${endpoint.method === 'del' ? 'delete' : endpoint.method}${endpoint.path.replace(/[/:-](\w)/g, (_, c: string) => c.toUpperCase())}`,
    parameters: parameters(endpoint),
    responses,
  };
  if (endpoint.auth !== 'none') op.security = [{ bearerToken: [] }];
  if (endpoint.body) op.requestBody = { required: true, content: { 'application/json': { schema: schemaOf(endpoint.body) } } };
  if (endpoint.uploadDoc) op.requestBody = endpoint.uploadDoc;
  return op;
}

const predictOperation: JsonSchema = {
  tags: ['inference'],
  summary: 'run a model version on one image; detections grouped by label',
  operationId: 'predict',
  security: [{ inferenceKey: [] }],
  parameters: [
    { name: 'modelVersionId', in: 'path', required: true, schema: { type: 'string' } },
    { name: 'threshold', in: 'query', required: false, schema: { type: 'number', minimum: 0, maximum: 1 } },
    { name: 'iou', in: 'query', required: false, schema: { type: 'number', minimum: 0, maximum: 1 } },
    { name: 'max_detections', in: 'query', required: false, schema: { type: 'integer', minimum: 1, maximum: 1000 } },
  ],
  requestBody: {
    required: true,
    content: {
      'multipart/form-data': {
        schema: { type: 'object', required: ['file'], properties: { file: { type: 'string', format: 'binary' } } },
      },
      'application/json': {
        schema: { type: 'object', required: ['image'], properties: { image: { type: 'string', contentEncoding: 'base64' } } },
      },
    },
  },
  responses: {
    200: {
      description: 'detections by label; coordinates are [x, y] fractions of the original image',
      content: {
        'application/json': {
          schema: {
            type: 'object',
            additionalProperties: {
              type: 'array',
              items: {
                type: 'object',
                properties: {
                  type: { const: 'rectangle' },
                  data: {
                    type: 'object',
                    properties: {
                      min: { type: 'array', items: { type: 'number' }, minItems: 2, maxItems: 2 },
                      max: { type: 'array', items: { type: 'number' }, minItems: 2, maxItems: 2 },
                    },
                  },
                  score: { type: 'number' },
                  children: { type: 'object' },
                },
              },
            },
          },
        },
      },
    },
    400: { description: 'File size is too large / could not parse image / could not parse multipart form', content: { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } } },
    401: { description: 'Invalid or missing API key.' },
    404: { description: 'model version not found' },
    500: { description: 'could not inference model (version initializing or failed)' },
    503: { description: 'server is busy (Retry-After)' },
  },
};

const json = (schema: JsonSchema) => ({ 'application/json': { schema } });
const protobuf = (message: string) => ({
  'application/protobuf': { schema: { type: 'string', format: 'binary', description: `protobuf message ingress.${message} (proto/ingress.proto)` } },
});
const deviceAuth = [{ deviceToken: [] }];
const errorResponse = (description: string) => ({ description, content: json({ $ref: '#/components/schemas/Error' }) });
const location: JsonSchema = {
  type: 'object',
  properties: { timestamp: { type: 'integer' }, latitude: { type: 'number' }, longitude: { type: 'number' }, velocity: { type: 'number' }, course: { type: 'number' }, accuracy: { type: 'number' } },
};
const mobileEvent: JsonSchema = {
  type: 'object',
  description: 'an ingress.Event; JSON accepts batteryLevel/batteryLife, configuration/configurations, eventTTL/eventTtl, sensors/useSensors',
  properties: {
    timestamp: { type: 'integer', description: 'client time, Unix milliseconds' },
    locations: { type: 'array', items: location },
    wifis: { type: 'array', items: { type: 'object' } },
    ibeacons: { type: 'array', items: { type: 'object' } },
    powers: { type: 'array', items: { type: 'object' } },
    activities: { type: 'array', items: { type: 'object' } },
    configurations: { type: 'object' },
    properties: { type: 'object' },
    push: { type: 'object' },
    attributes: { type: 'object', additionalProperties: { type: 'string' } },
    error: { type: 'array', items: { type: 'object' } },
  },
};
const accepted = {
  204: { description: 'committed' },
  400: errorResponse('malformed body, wrong types (the field is named), or a body over MAX_INGEST_BODY_BYTES'),
  401: errorResponse('missing, forged or expired device token'),
  429: errorResponse('over the device rate (Retry-After)'),
};

/** The ingestion API: hand-written, since it speaks protobuf as well as JSON. */
const ingestionPaths: Record<string, Record<string, JsonSchema>> = {
  '/v1/registration': {
    post: {
      tags: ['ingestion'],
      summary: 'register a device with its channel API key',
      operationId: 'register',
      requestBody: {
        required: true,
        content: {
          ...json({ type: 'object', required: ['apiKey'], properties: { apiKey: { type: 'string' }, properties: { type: 'object' }, aliases: { type: 'object', additionalProperties: { type: 'string' } } } }),
          ...protobuf('RegistrationRequest'),
        },
      },
      responses: {
        200: {
          description: 'the device token',
          content: { ...json({ type: 'object', properties: { token: { type: 'string' }, deviceId: { type: 'string' }, organizationId: { type: 'string' } } }), ...protobuf('RegistrationResponse') },
        },
        400: errorResponse('malformed body'),
        401: errorResponse('Failed to register with given API KEY'),
      },
    },
  },
  '/v1/mobile/events': {
    post: {
      tags: ['ingestion'],
      summary: 'send one mobile event; 204 once committed',
      operationId: 'mobileEvent',
      security: deviceAuth,
      parameters: [{ name: 'Idempotency-Key', in: 'header', required: false, schema: { type: 'string' } }],
      requestBody: { required: true, content: { ...json(mobileEvent), ...protobuf('Event') } },
      responses: accepted,
    },
  },
  '/v1/mobile/events/batch': {
    post: {
      tags: ['ingestion'],
      summary: 'send up to 1,000 mobile events; 204 once committed',
      operationId: 'mobileEventBatch',
      security: deviceAuth,
      parameters: [{ name: 'Idempotency-Key', in: 'header', required: false, schema: { type: 'string' } }],
      requestBody: { required: true, content: { ...json({ type: 'object', required: ['events'], properties: { events: { type: 'array', maxItems: 1000, items: mobileEvent } } }), ...protobuf('MobileEvents') } },
      responses: accepted,
    },
  },
  '/v1/iot/events': {
    post: {
      tags: ['ingestion'],
      summary: "send an IoT event (free-form JSON, checked against the channel's schema); 204 once committed",
      operationId: 'iotEvent',
      security: deviceAuth,
      requestBody: { required: true, content: json({ type: 'object' }) },
      responses: accepted,
    },
  },
  '/v1/mobile/configuration': {
    get: {
      tags: ['ingestion'],
      summary: "the device's configuration",
      operationId: 'configuration',
      security: deviceAuth,
      responses: { 200: { description: 'configuration', content: { ...json({ type: 'object' }), ...protobuf('Configuration') } } },
    },
  },
  '/v1/mobile/ibeacons': {
    get: {
      tags: ['ingestion'],
      summary: 'iBeacons to whitelist',
      operationId: 'ibeacons',
      security: deviceAuth,
      parameters: [{ name: 'count', in: 'query', required: false, schema: { type: 'integer', minimum: 1, maximum: 1000 } }],
      responses: { 200: { description: 'beacons', content: { ...json({ type: 'object', properties: { ibeacons: { type: 'array' } } }), ...protobuf('IBeaconsResponse') } } },
    },
  },
  '/v1/mobile/notifications': {
    get: {
      tags: ['ingestion'],
      summary: "the device's push notifications",
      operationId: 'notifications',
      security: deviceAuth,
      parameters: ['startTime', 'endTime', 'limit'].map((name) => ({ name, in: 'query', required: false, schema: { type: 'integer' } })),
      responses: { 200: { description: 'notifications', content: { ...json({ type: 'object' }), ...protobuf('NotificationResponse') } } },
    },
  },
  '/v1/mobile/rules': {
    get: {
      tags: ['ingestion'],
      summary: 'edge rules for the device to run',
      operationId: 'edgeRules',
      security: deviceAuth,
      parameters: [{ name: 'ruleType', in: 'query', required: false, schema: { type: 'string' } }],
      responses: { 200: { description: 'rules', content: { ...json({ type: 'object' }), ...protobuf('RulesResponse') } } },
    },
  },
};

export function buildOpenApi(endpoints: readonly Endpoint[]): JsonSchema {
  sharedSchemas = {};
  const paths: Record<string, Record<string, JsonSchema>> = {
    '/v1/models/{modelVersionId}/predict': { post: predictOperation },
    ...ingestionPaths,
  };
  for (const endpoint of endpoints) {
    const path = endpoint.path.replace(/:(\w+)/g, '{$1}');
    (paths[path] ??= {})[endpoint.method === 'del' ? 'delete' : endpoint.method] = operation(endpoint);
  }
  return {
    openapi: '3.1.0',
    info: {
      title: 'Sense inference server',
      version: '2.0.0',
      description: 'Inference (/v1/models), platform management (/v2) and device ingestion (/v1) APIs. Errors are {status, message, error}.',
    },
    paths,
    components: {
      schemas: { Error: errorSchema, ...sharedSchemas },
      securitySchemes: {
        bearerToken: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT', description: 'user access token from POST /v2/login' },
        inferenceKey: { type: 'http', scheme: 'bearer', description: 'inference API key' },
        deviceToken: { type: 'apiKey', in: 'header', name: 'Authorization', description: 'device token from /v1/registration, with or without "Bearer "' },
      },
    },
  };
}
