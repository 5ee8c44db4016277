// Every route is declared with its schemas, like Fastify routes: method,
// path, zod schemas for params, query and body (or a content parser for
// protobuf/JSON bodies), the authentication scheme, the role action, how the
// body is read (its body policy) and the responses. One adapter turns a
// declaration into a uWS route: it authenticates before reading the body,
// validates, runs the handler and writes the answer. The same declarations
// produce /openapi.json (openapi.ts), so the document cannot drift.
import type { z, ZodType } from 'zod';
import { whyUnstorable } from '../lib/storable.js';
import { decodeUtf8 } from '../lib/utf8.js';
import { ApiError } from './errors.js';
import { singleValued } from './query-params.js';
import { describeIssues } from '../lib/zod-issues.js';
import type { Authenticator, Caller, UserCaller } from '../platform/auth/caller.js';
import type { DeviceClaims } from '../platform/auth/tokens.js';
import { authorize, type Action } from '../platform/permissions.js';
import type { BodyBudget } from '../lib/body-budget.js';
import { EventStream, STREAM_OPENING } from './event-stream.js';
import {
  BodyTooLargeError,
  openBodyStream,
  readGatedBody,
  type BodyStream,
  type GatedBody,
  type GatedBodyOptions,
} from './body-readers.js';
import type { Reply } from './reply.js';
import type { Request } from './request.js';
import type { Route } from './router.js';

/**
 * How a caller proves who it is, one scheme per route:
 * - none: public
 * - user: any valid access token (POST /v2/login)
 * - organization: a token bound to an organization the caller belongs to
 * - device: a device token from /v1/registration
 * - inferenceKey: an inference API key (predict); checked synchronously, from memory
 * - metrics: METRICS_TOKEN, or a client on this host when none is set
 */
export type AuthLevel = 'none' | 'user' | 'organization' | 'device' | 'inferenceKey' | 'metrics';

/** The schemes' resolvers, filled in by the composition root (app.ts). */
export interface Authenticators extends Authenticator {
  device(authorization: string | undefined): Promise<DeviceCaller>;
  /** the device when known without waiting (see IngestService.authenticateNow); undefined: ask device() */
  deviceNow(authorization: string | undefined): DeviceCaller | undefined;
  /** the organization of an inference API key; throws the predict 401 */
  inferenceKey(authorization: string | undefined): InferenceKeyCaller;
  metrics(request: Request): void;
}

/** A device, from its token. */
type DeviceCaller = DeviceClaims;

interface InferenceKeyCaller {
  organizationId: string;
}

/**
 * How the body is read:
 * - buffered (the default for a declared `body` or `content`): whole, after
 *   the caller is authenticated and authorized (readGatedBody), within the
 *   shared memory budget, then parsed and validated;
 * - streamed: chunk by chunk through ctx.upload, started by the handler once
 *   it has checked what it needs (model uploads);
 * - handler: the handler reads it itself, when admission lets it (predict).
 *   The scheme must be synchronous (none, inferenceKey, metrics): uWS wants
 *   the body's reader attached before the first await.
 */
export type BodyPolicy = 'buffered' | 'streamed' | 'handler';

export interface ApiResponse {
  status: number;
  body?: unknown;
  headers?: Record<string, string>;
  contentType?: string;
  /** a text/event-stream answer instead of a body (respond.eventStream) */
  eventStream?: EventStreamResponse;
}

/** How a stream of server-sent events is answered: its limits, and what feeds it. */
export interface EventStreamResponse {
  /** bytes of messages held for a slow client before it is dropped */
  bufferBytes: number;
  /** a comment line this often on an idle stream; 15 s by default */
  keepAliveMs?: number;
  /**
   * Called once the headers are sent, with the stream to send on; the stream
   * may be over already (the client left meanwhile): its onClose runs at once.
   */
  start(stream: EventStream): void;
}

const KEEP_ALIVE_MS = 15_000;

export const respond = {
  /** a resource: {data} */
  data: (data: unknown, status = 200): ApiResponse => ({ status, body: { data } }),
  /** a list: {data, meta} */
  list: (data: unknown[], meta: Record<string, unknown>): ApiResponse => ({ status: 200, body: { data, meta } }),
  noContent: (): ApiResponse => ({ status: 204 }),
  /** a body without envelope, e.g. login's {"token"} */
  bare: (body: unknown, status = 200): ApiResponse => ({ status, body }),
  /** bytes or text already encoded (protobuf, Prometheus text) */
  encoded: (encoded: { body: string | Uint8Array; contentType: string }, status = 200): ApiResponse => ({
    status,
    ...encoded,
  }),
  /** server-sent events (text/event-stream), each message declared under the 200 response's `events` */
  eventStream: (stream: EventStreamResponse): ApiResponse => ({ status: 200, eventStream: stream }),
};

type Infer<T> = T extends ZodType ? z.infer<T> : undefined;

interface HandlerContext<P, Q, B, C> {
  params: P;
  query: Q;
  body: B;
  caller: C;
  request: Request;
  /** for `streamed` endpoints: the body, read chunk by chunk once the handler starts it */
  upload: BodyStream | undefined;
  /** for `handler` endpoints, which answer through it and resolve with undefined */
  reply: Reply;
}

type CallerFor<A extends AuthLevel> = A extends 'organization'
  ? Caller
  : A extends 'user'
    ? UserCaller
    : A extends 'device'
      ? DeviceCaller
      : A extends 'inferenceKey'
        ? InferenceKeyCaller
        : undefined;

export interface EndpointResponseDoc {
  description: string;
  /** a JSON body's shape */
  schema?: ZodType;
  /** the same answer as protobuf: the message's name in proto/ingress.proto */
  protobuf?: string;
  /** a body that is neither JSON nor protobuf (Prometheus text) */
  text?: string;
  /** bytes of these media types (a camera's kept frame: image/jpeg, image/png, ...) */
  binary?: readonly string[];
  /**
   * A text/event-stream answer (respond.eventStream): its messages by event
   * name, each `data:` line the JSON of the schema (none: no data to speak of).
   */
  events?: Record<string, { description: string; schema?: ZodType }>;
}

/** A body read whole and turned into the handler's value by the request's Content-Type (JSON, protobuf). */
export interface ContentParser<T> {
  parse(bytes: Uint8Array, request: Request): T;
  /** the OpenAPI request body's `content`, by media type */
  doc: Record<string, { schema: ZodType } | { protobuf: string }>;
}

/** Errors a route words its own way (the ingestion API answers an oversized body 400, not 413). */
export interface ErrorMapper {
  bodyTooLarge?(bytes: number, limit: number): ApiError;
}

export interface EndpointDefinition<
  A extends AuthLevel,
  P extends ZodType | undefined,
  Q extends ZodType | undefined,
  B extends ZodType | undefined,
  C = undefined,
> {
  method: 'get' | 'post' | 'put' | 'patch' | 'del';
  path: string;
  summary: string;
  /** OpenAPI description: a sentence or two on what the operation does, beyond its summary */
  description?: string;
  /** OpenAPI tag: the area of the API (a key of TAGS in openapi.ts) */
  tag: string;
  /** OpenAPI operationId; derived from method and path by default */
  operationId?: string;
  auth: A;
  /** checked against the caller's role before the handler runs */
  action?: A extends 'organization' ? Action : never;
  params?: P;
  query?: Q;
  /** a JSON body, validated */
  body?: B;
  /** a body decoded by its Content-Type instead (protobuf or JSON) */
  content?: ContentParser<C>;
  bodyPolicy?: BodyPolicy;
  /** bytes; default 1 MiB */
  bodyLimit?: number;
  /** OpenAPI request body for streamed and handler-read bodies */
  requestDoc?: Record<string, unknown>;
  /** request headers the operation reads (OpenAPI) */
  headers?: ReadonlyArray<{ name: string; description: string }>;
  responses?: Record<number, EndpointResponseDoc>;
  errors?: ErrorMapper;
  /** Gen A / older spellings of the same operation, served by the same handler */
  aliases?: Array<{ method: EndpointDefinition<A, P, Q, B, C>['method']; path: string }>;
  /** May answer at once (a synchronous scheme's handler that awaits nothing is then answered without a promise). */
  handler(
    ctx: HandlerContext<Infer<P>, Infer<Q>, B extends ZodType ? z.infer<B> : C, CallerFor<A>>,
  ): Promise<ApiResponse | undefined> | ApiResponse | undefined;
}

/** A declared endpoint with its types erased, as the router and the OpenAPI generator see it. */
export type Endpoint = EndpointDefinition<
  AuthLevel,
  ZodType | undefined,
  ZodType | undefined,
  ZodType | undefined,
  unknown
>;

export function defineEndpoint<
  A extends AuthLevel,
  P extends ZodType | undefined = undefined,
  Q extends ZodType | undefined = undefined,
  B extends ZodType | undefined = undefined,
  C = undefined,
>(definition: EndpointDefinition<A, P, Q, B, C>): Endpoint {
  return definition as unknown as Endpoint;
}

const DEFAULT_BODY_LIMIT = 1024 * 1024;
/** An unauthenticated route's body (a login, a signup, a password reset): a few hundred bytes of JSON. */
const UNAUTHENTICATED_BODY_LIMIT = 16 * 1024;

function validate<T>(schema: ZodType | undefined, value: unknown, what: string): T {
  if (!schema) return undefined as T;
  const result = schema.safeParse(value);
  if (!result.success) throw new ApiError(400, `invalid ${what}`, describeIssues(result.error));
  return result.data as T;
}

/**
 * Refuses what PostgreSQL cannot store (db/storable.ts) anywhere in a
 * request's parameters or body, naming where: stored, it would fail the
 * statement (a 500) or be altered on the way.
 */
function storable<T>(value: T, what: string): T {
  const why = whyUnstorable(value);
  if (why !== undefined) throw new ApiError(400, `invalid ${what}`, why);
  return value;
}

function parseJson(bytes: Uint8Array): unknown {
  if (bytes.byteLength === 0) return undefined;
  try {
    return JSON.parse(decodeUtf8(bytes));
  } catch (error) {
    throw new ApiError(400, 'invalid JSON body', (error as Error).message);
  }
}

function send(reply: Reply, response: ApiResponse): void {
  if (response.body === undefined) {
    reply.send(response.status, '', response.contentType ?? 'application/json', response.headers);
  } else if (typeof response.body === 'string' || response.body instanceof Uint8Array) {
    reply.send(response.status, response.body, response.contentType ?? 'application/json', response.headers);
  } else {
    reply.send(
      response.status,
      JSON.stringify(response.body),
      response.contentType ?? 'application/json',
      response.headers,
    );
  }
}

/**
 * With RESPONSE_VALIDATION on (the server's HttpContext): a success body (as JSON carries it) that its
 * declared schema refuses, or that has no schema for its status, is a server
 * bug: logged with the path and the zod issue, and answered 500.
 */
function checkResponse(endpoint: Endpoint, req: Request, reply: Reply, response: ApiResponse): void {
  if (!reply.ctx.responseValidation || response.status < 200 || response.status >= 300 || response.body === undefined)
    return;
  if (typeof response.body === 'string' || response.body instanceof Uint8Array) return;
  const schema = endpoint.responses?.[response.status]?.schema;
  const result = schema?.safeParse(JSON.parse(JSON.stringify(response.body)));
  if (result?.success) return;
  const issue = result ? describeIssues(result.error) : `no response schema declared for status ${response.status}`;
  reply.ctx.log.error('response does not match its declared schema', {
    method: req.method,
    path: req.path,
    endpoint: endpoint.path,
    status: response.status,
    issue,
  });
  throw new ApiError(
    500,
    'internal server error',
    'the response did not match its declared schema; it has been logged',
  );
}

/**
 * With RESPONSE_VALIDATION on, each message of an event stream is checked
 * like a body: an event its declaration does not name, or data its schema
 * refuses, is a server bug, logged; the stream is then ended.
 */
function streamCheck(
  endpoint: Endpoint,
  req: Request,
  reply: Reply,
): ((event: string, data: unknown) => boolean) | undefined {
  if (!reply.ctx.responseValidation) return undefined;
  const events = endpoint.responses?.[200]?.events ?? {};
  return (event, data) => {
    const declared = events[event];
    const result = declared?.schema?.safeParse(JSON.parse(JSON.stringify(data ?? null)));
    if (declared && (!declared.schema || result?.success)) return true;
    const issue = !declared ? `event "${event}" is not declared` : describeIssues(result!.error!);
    reply.ctx.log.error('event stream message does not match its declared schema', {
      method: req.method,
      path: req.path,
      endpoint: endpoint.path,
      event,
      issue,
    });
    return false;
  };
}

/** Starts an event stream: headers that keep proxies from buffering it, the stream, its feed. */
function openEventStream(endpoint: Endpoint, req: Request, reply: Reply, response: EventStreamResponse): void {
  // no-store: nothing to cache; X-Accel-Buffering: nginx passes each message on at once
  const raw = reply.stream(
    200,
    'text/event-stream; charset=utf-8',
    { 'Cache-Control': 'no-store', 'X-Accel-Buffering': 'no' },
    STREAM_OPENING,
  );
  const check = streamCheck(endpoint, req, reply);
  const stream = new EventStream(raw, {
    bufferBytes: response.bufferBytes,
    keepAliveMs: response.keepAliveMs ?? KEEP_ALIVE_MS,
    ...(check && { check }),
  });
  response.start(stream);
}

/** What buffered bodies share with every other route. */
export interface BodyBudgetPolicy {
  /** tenants' bodies, each organization a part (MAX_BUFFERED_BYTES) */
  budget: BodyBudget;
  /** bodies of senders not known, each client address a part (UNAUTHENTICATED_BUFFERED_BYTES) */
  strangers: BodyBudget;
  holdMs: number;
}

/** The body policy a declaration asks for, its default following from what it declares. */
export function bodyPolicyOf(endpoint: Endpoint): BodyPolicy | undefined {
  if (endpoint.bodyPolicy) return endpoint.bodyPolicy;
  return (endpoint.body || endpoint.content) && endpoint.method !== 'get' ? 'buffered' : undefined;
}

/**
 * Predict's 401 body is documented exactly, without an `error` (docs/CONTRACT.md#predict-errors),
 * so the form expected is said where RFC 6750 puts it: a `WWW-Authenticate:
 * Bearer` challenge on every such 401 (its error_description may not hold
 * double quotes or backslashes).
 */
function bearerChallenge(authorization: string | undefined): string {
  const expected = 'expected Authorization: Bearer <API key>';
  const header = authorization?.trim() ?? '';
  if (header === '') return `Bearer error="invalid_request", error_description="no Authorization header; ${expected}"`;
  if (!/^Bearer\s+\S+$/i.test(header))
    return `Bearer error="invalid_request", error_description="the Authorization header is not of the Bearer scheme; ${expected}"`;
  return `Bearer error="invalid_token", error_description="the API key is unknown, disabled or deleted; ${expected}"`;
}

function inferenceKeyCaller(auth: Authenticators, authorization: string | undefined): InferenceKeyCaller {
  try {
    return auth.inferenceKey(authorization);
  } catch (error) {
    const refusal = ApiError.from(error);
    if (refusal?.status !== 401) throw error;
    throw new ApiError(
      401,
      refusal.message,
      refusal.detail,
      { ...refusal.headers, 'WWW-Authenticate': bearerChallenge(authorization) },
      refusal.code,
    );
  }
}

const SYNCHRONOUS_SCHEMES: ReadonlySet<AuthLevel> = new Set(['none', 'inferenceKey', 'metrics']);

/**
 * Turns a declaration (and its aliases) into uWS routes. The caller is
 * authenticated (and authorized) before a byte of the body is read: a
 * buffered body through readGatedBody, a streamed one by not starting it
 * until the handler runs, a handler-read one by authenticating synchronously
 * before the handler is called.
 */
export function endpointRoutes(endpoint: Endpoint, auth: Authenticators, bodies: BodyBudgetPolicy): Route[] {
  const limit = endpoint.bodyLimit ?? (endpoint.auth === 'none' ? UNAUTHENTICATED_BODY_LIMIT : DEFAULT_BODY_LIMIT);
  const policy = bodyPolicyOf(endpoint);
  const tooLarge = (bytes: number) =>
    endpoint.errors?.bodyTooLarge?.(bytes, limit) ??
    new ApiError(413, 'request body too large', `the limit is ${limit} bytes`);
  if (policy === 'handler' && !SYNCHRONOUS_SCHEMES.has(endpoint.auth)) {
    throw new Error(
      `${endpoint.path}: a handler-read body needs a synchronous authentication scheme, not "${endpoint.auth}"`,
    );
  }

  /** The caller of a synchronous scheme (none, inferenceKey, metrics). */
  const callerNow = (req: Request): unknown => {
    if (endpoint.auth === 'inferenceKey') return inferenceKeyCaller(auth, req.headers.authorization);
    if (endpoint.auth === 'metrics') auth.metrics(req);
    return undefined;
  };
  const callerOf = async (req: Request): Promise<unknown> => {
    if (endpoint.auth === 'device') return auth.device(req.headers.authorization);
    if (endpoint.auth !== 'user' && endpoint.auth !== 'organization') return callerNow(req);
    const user = await auth.user(req.headers.authorization);
    if (endpoint.auth === 'user') return user;
    const member = await auth.member(user);
    if (endpoint.action) authorize(member.role, endpoint.action);
    return member;
  };
  // Parameters a route declares no schema for are not read (nor the query parsed).
  const parameters = (req: Request) => ({
    params: endpoint.params
      ? validate(endpoint.params, storable(req.params, 'path parameter'), 'path parameter')
      : undefined,
    query: endpoint.query
      ? validate(endpoint.query, storable(singleValued(req.query), 'query parameter'), 'query parameter')
      : undefined,
  });
  const parseBody = (raw: Uint8Array, req: Request): unknown => {
    if (endpoint.content) return endpoint.content.parse(raw, req);
    return endpoint.body
      ? validate(endpoint.body, storable(parseJson(raw) ?? {}, 'request body'), 'request body')
      : undefined;
  };
  const answerNow = (req: Request, reply: Reply, response: ApiResponse | undefined): void => {
    if (!response) return;
    if (response.eventStream) {
      openEventStream(endpoint, req, reply, response.eventStream);
      return;
    }
    checkResponse(endpoint, req, reply, response);
    send(reply, response);
  };
  const answer = (req: Request, reply: Reply) => (response: ApiResponse | undefined) => answerNow(req, reply, response);

  /** What readGatedBody needs of the route, the same for each request. */
  const gatedOptions: GatedBodyOptions = {
    limit,
    budget: bodies.budget,
    strangers: bodies.strangers,
    unauthenticated: endpoint.auth === 'none',
    holdMs: bodies.holdMs,
    tooLarge: (error: BodyTooLargeError) => tooLarge(error.bytes),
  };
  /** A buffered body, once read (undefined: refused or abandoned before), parsed and handed to the handler with its caller. */
  const answerBuffered = async (
    req: Request,
    reply: Reply,
    gated: GatedBody | undefined,
    caller: unknown,
  ): Promise<void> => {
    if (!gated) return; // refused before its body
    try {
      const { params, query } = parameters(req);
      const body = parseBody(gated.bytes, req);
      answerNow(
        req,
        reply,
        await endpoint.handler({
          params,
          query,
          body,
          caller: caller as never,
          request: req,
          upload: undefined,
          reply,
        }),
      );
    } finally {
      gated.release();
    }
  };

  const synchronous = SYNCHRONOUS_SCHEMES.has(endpoint.auth);
  const handlers: Record<BodyPolicy | 'none', Route['handler']> = {
    none: (req, reply) => {
      // A synchronous scheme and a handler that awaits nothing (health, the
      // version) are answered at once, without a promise or a microtask.
      if (synchronous) {
        const { params, query } = parameters(req);
        const result = endpoint.handler({
          params,
          query,
          body: undefined,
          caller: callerNow(req) as never,
          request: req,
          upload: undefined,
          reply,
        });
        if (result instanceof Promise) return result.then(answer(req, reply));
        answerNow(req, reply, result);
        return;
      }
      return (async () => {
        const caller = await callerOf(req);
        const { params, query } = parameters(req);
        answerNow(
          req,
          reply,
          await endpoint.handler({
            params,
            query,
            body: undefined,
            caller: caller as never,
            request: req,
            upload: undefined,
            reply,
          }),
        );
      })();
    },
    buffered: (req, reply) => {
      // uWS needs the body handler attached synchronously, before any await.
      const known = endpoint.auth === 'device' ? auth.deviceNow(req.headers.authorization) : undefined;
      if (known)
        return readGatedBody(req, reply, gatedOptions, { owner: known.organizationId }).then((gated) =>
          answerBuffered(req, reply, gated, known),
        );
      let caller: unknown;
      const options = {
        ...gatedOptions,
        owner: () => (caller as { organizationId?: string } | undefined)?.organizationId,
      };
      const buffered = readGatedBody(req, reply, options, async () => {
        caller = await callerOf(req);
      });
      return buffered.then((gated) => answerBuffered(req, reply, gated, caller));
    },
    streamed: (req, reply) => {
      const upload = openBodyStream(req, reply, limit);
      return (async () => {
        const caller = await callerOf(req);
        const { params, query } = parameters(req);
        return endpoint.handler({
          params,
          query,
          body: undefined,
          caller: caller as never,
          request: req,
          upload,
          reply,
        });
      })().then(
        (response) => {
          upload.discard();
          answer(req, reply)(response);
        },
        (error: unknown) => {
          // An upload refused before or while it was read: drop the rest of it, so
          // the socket is not left paused and the client can read the answer.
          upload.discard();
          throw error instanceof BodyTooLargeError ? tooLarge(error.bytes) : error;
        },
      );
    },
    handler: (req, reply) => {
      const caller = callerNow(req);
      const { params, query } = parameters(req);
      return Promise.resolve(
        endpoint.handler({
          params,
          query,
          body: undefined,
          caller: caller as never,
          request: req,
          upload: undefined,
          reply,
        }),
      ).then(answer(req, reply));
    },
  };
  const handler = handlers[policy ?? 'none'];
  return [endpoint, ...(endpoint.aliases ?? [])].map((r) => ({
    method: r.method,
    path: r.path,
    name: endpoint.path,
    handler,
  }));
}
