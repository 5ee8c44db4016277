// Builds the OpenAPI 3.1 document of the whole server from the endpoint
// declarations alone: the schemas that validate requests, the content
// parsers' media types, the authentication schemes and the declared responses.
import { z, type ZodType } from 'zod';
import { bodyPolicyOf, type AuthLevel, type Endpoint, type EndpointResponseDoc } from './api.js';
import { SERVER_VERSION } from '../lib/server-version.js';

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
  for (const [location, type] of [
    ['path', endpoint.params],
    ['query', endpoint.query],
  ] as const) {
    if (!type) continue;
    const schema = schemaOf(type);
    const required = new Set((schema.required as string[] | undefined) ?? []);
    for (const [name, property] of Object.entries((schema.properties as Record<string, JsonSchema>) ?? {})) {
      // A parameter's description belongs on the parameter object, where
      // documentation viewers show it, not inside its schema.
      const { description, ...rest } = property;
      out.push({
        name,
        in: location,
        ...(typeof description === 'string' && { description }),
        required: location === 'path' || required.has(name),
        schema: typeof description === 'string' ? rest : property,
      });
    }
  }
  return out;
}

const errorContent = { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } };
const protobufContent = (message: string) => ({
  'application/protobuf': {
    schema: {
      type: 'string',
      format: 'binary',
      description: `protobuf message ingress.${message} (proto/ingress.proto)`,
    },
  },
});

/**
 * A text/event-stream answer: OpenAPI 3.1 has no way to describe the
 * messages of a stream (3.2's itemSchema), so the body is a string and
 * `x-events` gives each event name its description and the schema of its
 * `data:` JSON.
 */
function eventStreamContent(events: NonNullable<EndpointResponseDoc['events']>): JsonSchema {
  const names = Object.keys(events)
    .map((name) => `\`${name}\``)
    .join(', ');
  return {
    schema: {
      type: 'string',
      description: `server-sent events, each \`event:\` one of ${names} with one \`data:\` line of JSON (x-events); comment lines keep the connection alive`,
    },
    'x-events': Object.fromEntries(
      Object.entries(events).map(([name, event]) => [
        name,
        { description: event.description, ...(event.schema && { data: schemaOf(event.schema) }) },
      ]),
    ),
  };
}

function responseDoc(status: number, doc: EndpointResponseDoc): JsonSchema {
  const content: JsonSchema = {};
  if (doc.schema) content['application/json'] = { schema: schemaOf(doc.schema) };
  if (doc.protobuf) Object.assign(content, protobufContent(doc.protobuf));
  if (doc.text) content[doc.text] = { schema: { type: 'string' } };
  for (const type of doc.binary ?? []) content[type] = { schema: { type: 'string', format: 'binary' } };
  if (doc.events) content['text/event-stream'] = eventStreamContent(doc.events);
  if (status >= 400 && Object.keys(content).length === 0) Object.assign(content, errorContent);
  return Object.keys(content).length ? { description: doc.description, content } : { description: doc.description };
}

/**
 * The areas of the API, in the order /docs lists them; each declaration's
 * `tag` is one of these.
 */
const TAGS: Record<string, string> = {
  inference:
    'Running a model version on an image (/v1/models/{modelVersionId}/predict) and the inference API keys that authorize it.',
  models:
    'Models and their versions: uploading an ONNX model version, its deployment status on the workers, deleting it.',
  accounts:
    'Signing up, verifying an email address, logging in, password resets, invitations and switching organization.',
  users: 'The authenticated user and the members of the organization.',
  organizations: 'The organizations a user belongs to: creating, renaming and deleting them.',
  channels: 'Channels, through which devices send events, and their API keys, with which devices register.',
  schemas: 'Payload schemas: the fields that the events of a channel are validated against.',
  projects: 'Projects, which group channels with their rules and landmarks.',
  gateways: 'Gateways: the on-premises edge servers of the organization.',
  devices: 'Devices registered in the channels of the organization: reading, updating, deleting and searching them.',
  landmarks: 'Landmarks: named places of a project (circles, rectangles, polygons), which rules can refer to.',
  rules:
    'Rules, which run actions (push notifications, emails, SMS, webhooks, MQTT commands to devices) on the events that meet their conditions, and the log of their deliveries.',
  events: 'The events devices sent: search, aggregates over time, and a live stream.',
  ingestion: 'The device API (/v1): registration with a channel API key, sending events, and what a device reads back.',
  health: 'The API version, liveness, readiness and Prometheus metrics.',
};

/**
 * An operation that has no 4XX of its own can still be refused by the HTTP
 * layer (uWebSockets) before the route runs: a malformed request line or
 * header is answered 400 with a small HTML page.
 */
const MALFORMED_HTTP: JsonSchema = {
  description:
    'malformed HTTP request, refused by the HTTP layer before the route runs (an HTML page, not the JSON error)',
  content: { 'text/html': { schema: { type: 'string' } } },
};

/** What every operation of a scheme can answer besides its own responses. */
const SCHEME_ERRORS: Record<AuthLevel, Record<number, string>> = {
  none: {},
  user: { 401: 'missing, invalid or expired token' },
  organization: { 401: 'missing, invalid or expired token', 403: 'the role of the caller does not allow this' },
  device: { 401: 'missing, forged or expired device token' },
  inferenceKey: { 401: 'Invalid or missing API key.' },
  metrics: {
    401: 'METRICS_TOKEN is set and was not sent',
    403: 'METRICS_TOKEN is not set and the client is not on this host',
  },
};

/** `[]` marks a public operation as such (there is no document-wide default). */
const SECURITY: Record<AuthLevel, JsonSchema[]> = {
  none: [],
  user: [{ bearerToken: [] }],
  organization: [{ bearerToken: [] }],
  device: [{ deviceToken: [] }],
  inferenceKey: [{ inferenceKey: [] }],
  metrics: [{ metricsToken: [] }, {}],
};

function requestBody(endpoint: Endpoint): JsonSchema | undefined {
  if (endpoint.requestDoc) return endpoint.requestDoc;
  if (endpoint.content) {
    const content: JsonSchema = {};
    for (const [type, doc] of Object.entries(endpoint.content.doc)) {
      Object.assign(
        content,
        'protobuf' in doc ? protobufContent(doc.protobuf) : { [type]: { schema: schemaOf(doc.schema) } },
      );
    }
    return { required: true, content };
  }
  if (endpoint.body) return { required: true, content: { 'application/json': { schema: schemaOf(endpoint.body) } } };
  return undefined;
}

function operation(endpoint: Endpoint): JsonSchema {
  const responses: Record<string, JsonSchema> = {};
  for (const [status, doc] of Object.entries(endpoint.responses ?? { 200: { description: 'success' } })) {
    responses[status] = responseDoc(Number(status), doc);
  }
  const errors: Record<number, string> = { ...SCHEME_ERRORS[endpoint.auth] };
  if (endpoint.params || endpoint.query || bodyPolicyOf(endpoint))
    errors[400] = 'invalid request (the offending field is named in `error`)';
  if (endpoint.params) errors[404] = 'not found in the organization of the caller';
  for (const [status, description] of Object.entries(errors))
    responses[status] ??= { description, content: errorContent };
  if (!Object.keys(responses).some((status) => status.startsWith('4'))) responses[400] = MALFORMED_HTTP;
  const op: JsonSchema = {
    tags: [endpoint.tag],
    summary: endpoint.summary,
    ...(endpoint.description && { description: endpoint.description }),
    operationId:
      endpoint.operationId ??
      `${endpoint.method === 'del' ? 'delete' : endpoint.method}${endpoint.path.replace(/[/:-](\w)/g, (_, c: string) => c.toUpperCase())}`,
    parameters: [
      ...parameters(endpoint),
      ...(endpoint.headers ?? []).map((h) => ({
        name: h.name,
        in: 'header',
        required: false,
        description: h.description,
        schema: { type: 'string' },
      })),
    ],
    responses,
    security: SECURITY[endpoint.auth],
  };
  const body = requestBody(endpoint);
  if (body) op.requestBody = body;
  return op;
}

export function buildOpenApi(endpoints: readonly Endpoint[]): JsonSchema {
  sharedSchemas = {};
  const paths: Record<string, Record<string, JsonSchema>> = {};
  const used = new Set(endpoints.map((endpoint) => endpoint.tag));
  for (const endpoint of endpoints) {
    const path = endpoint.path.replace(/:(\w+)/g, '{$1}');
    (paths[path] ??= {})[endpoint.method === 'del' ? 'delete' : endpoint.method] = operation(endpoint);
  }
  return {
    openapi: '3.1.0',
    info: {
      title: 'Sense inference server',
      version: SERVER_VERSION,
      description:
        'Inference (/v1/models), platform management (/v2) and device ingestion (/v1) APIs. Errors are {status, message, error}.',
      license: { name: 'MIT', identifier: 'MIT' },
    },
    // Relative: the document is served by the server it describes, so its
    // paths are on whatever origin /openapi.json was fetched from.
    servers: [{ url: '/', description: 'this server (the origin that served this document)' }],
    // Every tag in use, described; a tag missing from TAGS is listed without a description (and the lint test fails).
    tags: [...Object.keys(TAGS).filter((name) => used.has(name)), ...[...used].filter((name) => !(name in TAGS))].map(
      (name) => (TAGS[name] ? { name, description: TAGS[name] } : { name }),
    ),
    paths,
    components: {
      schemas: { Error: errorSchema, ...sharedSchemas },
      securitySchemes: {
        bearerToken: {
          type: 'http',
          scheme: 'bearer',
          bearerFormat: 'JWT',
          description: 'user access token from POST /v2/login',
        },
        inferenceKey: { type: 'http', scheme: 'bearer', description: 'inference API key' },
        deviceToken: {
          type: 'apiKey',
          in: 'header',
          name: 'Authorization',
          description: 'device token from /v1/registration, with or without "Bearer "',
        },
        metricsToken: {
          type: 'http',
          scheme: 'bearer',
          description: "METRICS_TOKEN; without one set, /metrics answers clients on the server's own host only",
        },
      },
    },
  };
}
