// Management and ingestion endpoints are declared with their schemas, like
// Fastify routes: method, path, zod schemas for params, query and body, the
// authentication they need and the action they perform. One adapter turns a
// declaration into a uWS route: it reads and validates the body, checks the
// token and the caller's role, runs the handler and writes the envelope. The
// same declarations produce /openapi.json, so the document cannot drift.
import type { z, ZodType } from 'zod';
import { whyUnstorable } from '../db/storable.js';
import { ApiError } from '../errors.js';
import { describeIssues } from '../lib/zod-issues.js';
import { log } from '../log.js';
import type { Authenticator, Caller, UserCaller } from '../platform/auth/caller.js';
import { authorize, type Action } from '../platform/permissions.js';

export type { Authenticator, Caller, UserCaller };
import type { BodyBudget } from './body-budget.js';
import { BodyTooLargeError, openBodyStream, readGatedBody, type BodyStream, type Reply, type Request, type Route } from './server.js';

/** none: public; user: any valid access token; organization: a token bound to an organization the caller belongs to. */
export type AuthLevel = 'none' | 'user' | 'organization';

export interface ApiResponse {
  status: number;
  body?: unknown;
  headers?: Record<string, string>;
  contentType?: string;
}

export const respond = {
  /** a resource: {data} */
  data: (data: unknown, status = 200): ApiResponse => ({ status, body: { data } }),
  /** a list: {data, meta} */
  list: (data: unknown[], meta: Record<string, unknown>): ApiResponse => ({ status: 200, body: { data, meta } }),
  noContent: (): ApiResponse => ({ status: 204 }),
  /** a body without envelope, e.g. login's {"token"} */
  bare: (body: unknown, status = 200): ApiResponse => ({ status, body }),
};

type Infer<T> = T extends ZodType ? z.infer<T> : undefined;

export interface HandlerContext<P, Q, B, C> {
  params: P;
  query: Q;
  body: B;
  caller: C;
  request: Request;
  /** for `upload` endpoints: the body, read chunk by chunk once the handler starts it */
  upload: BodyStream | undefined;
}

type CallerFor<A extends AuthLevel> = A extends 'organization' ? Caller : A extends 'user' ? UserCaller : undefined;

export interface EndpointResponseDoc {
  description: string;
  schema?: ZodType;
}

export interface EndpointDefinition<
  A extends AuthLevel,
  P extends ZodType | undefined,
  Q extends ZodType | undefined,
  B extends ZodType | undefined,
> {
  method: 'get' | 'post' | 'put' | 'patch' | 'del';
  path: string;
  summary: string;
  tag: string;
  auth: A;
  /** checked against the caller's role before the handler runs */
  action?: A extends 'organization' ? Action : never;
  params?: P;
  query?: Q;
  body?: B;
  /** bytes; default 1 MiB */
  bodyLimit?: number;
  /** the body is streamed to the handler (ctx.upload) instead of parsed as JSON */
  upload?: boolean;
  /** OpenAPI request body for upload endpoints */
  uploadDoc?: Record<string, unknown>;
  responses?: Record<number, EndpointResponseDoc>;
  /** Gen A / older spellings of the same operation, served by the same handler */
  aliases?: Array<{ method: EndpointDefinition<A, P, Q, B>['method']; path: string }>;
  handler(ctx: HandlerContext<Infer<P>, Infer<Q>, Infer<B>, CallerFor<A>>): Promise<ApiResponse>;
}

/** A declared endpoint with its types erased, as the router and the OpenAPI generator see it. */
export type Endpoint = EndpointDefinition<AuthLevel, ZodType | undefined, ZodType | undefined, ZodType | undefined>;

export function defineEndpoint<
  A extends AuthLevel,
  P extends ZodType | undefined = undefined,
  Q extends ZodType | undefined = undefined,
  B extends ZodType | undefined = undefined,
>(definition: EndpointDefinition<A, P, Q, B>): Endpoint {
  return definition as unknown as Endpoint;
}

const DEFAULT_BODY_LIMIT = 1024 * 1024;

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
    return JSON.parse(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('utf8'));
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
    reply.send(response.status, JSON.stringify(response.body), response.contentType ?? 'application/json', response.headers);
  }
}

/** RESPONSE_VALIDATION: success bodies are checked against the schemas their endpoint declares. */
let responseValidation = false;
export const setResponseValidation = (on: boolean): void => void (responseValidation = on);

/**
 * With RESPONSE_VALIDATION on: a success body (as JSON carries it) that its
 * declared schema refuses, or that has no schema for its status, is a server
 * bug: logged with the path and the zod issue, and answered 500.
 */
function checkResponse(endpoint: Endpoint, req: Request, response: ApiResponse): void {
  if (!responseValidation || response.status < 200 || response.status >= 300 || response.body === undefined) return;
  if (typeof response.body === 'string' || response.body instanceof Uint8Array) return;
  const schema = endpoint.responses?.[response.status]?.schema;
  const result = schema?.safeParse(JSON.parse(JSON.stringify(response.body)));
  if (result?.success) return;
  const issue = result ? describeIssues(result.error) : `no response schema declared for status ${response.status}`;
  log.error('response does not match its declared schema', { method: req.method, path: req.path, endpoint: endpoint.path, status: response.status, issue });
  throw new ApiError(500, 'internal server error', 'the response did not match its declared schema; it has been logged');
}

const tooLarge = (limit: number) => new ApiError(413, 'request body too large', `the limit is ${limit} bytes`);

/** What buffered management bodies share with every other route. */
export interface BodyPolicy {
  budget: BodyBudget;
  holdMs: number;
}

/**
 * Turns a declaration (and its aliases) into uWS routes. The caller is
 * authenticated (and authorized) before a byte of the body is read: a
 * buffered body through readGatedBody, an upload by not starting its stream
 * until the handler runs.
 */
export function endpointRoutes(endpoint: Endpoint, auth: Authenticator, bodies: BodyPolicy): Route[] {
  const limit = endpoint.bodyLimit ?? DEFAULT_BODY_LIMIT;
  const handler = (req: Request, reply: Reply) => {
    let caller: UserCaller | Caller | undefined;
    const bodyOptions = { limit, budget: bodies.budget, holdMs: bodies.holdMs, tooLarge: () => tooLarge(limit), owner: () => caller?.organizationId };
    const authenticate = async () => {
      if (endpoint.auth === 'none') return;
      const user = await auth.user(req.headers.authorization);
      caller = user;
      if (endpoint.auth === 'organization') {
        const member = await auth.member(user);
        if (endpoint.action) authorize(member.role, endpoint.action);
        caller = member;
      }
    };
    // uWS needs the body handler attached synchronously, before any await.
    const upload = endpoint.upload ? openBodyStream(req, reply, limit) : undefined;
    const buffered = endpoint.body && endpoint.method !== 'get' && !upload ? readGatedBody(req, reply, bodyOptions, authenticate) : undefined;
    /** The response, or undefined when the request was answered already (refused before its body). */
    const run = async (): Promise<ApiResponse | undefined> => {
      let raw: Uint8Array = new Uint8Array(0);
      let release = () => {};
      if (buffered) {
        const gated = await buffered;
        if (!gated) return undefined;
        ({ bytes: raw, release } = gated);
      } else {
        await authenticate();
      }
      try {
        const params = validate(endpoint.params, storable(req.params, 'path parameter'), 'path parameter');
        const query = validate(endpoint.query, storable(Object.fromEntries(req.query), 'query parameter'), 'query parameter');
        const parsedBody = endpoint.body ? validate(endpoint.body, storable(parseJson(raw) ?? {}, 'request body'), 'request body') : undefined;
        return await endpoint.handler({ params, query, body: parsedBody, caller: caller as never, request: req, upload });
      } catch (error) {
        throw error instanceof BodyTooLargeError ? tooLarge(limit) : error;
      } finally {
        release();
      }
    };
    return run().then(
      (response) => {
        upload?.discard();
        if (response) {
          checkResponse(endpoint, req, response);
          send(reply, response);
        }
      },
      (error: unknown) => {
        // An upload refused before or while it was read: drop the rest of it, so
        // the socket is not left paused and the client can read the answer.
        upload?.discard();
        throw error;
      },
    );
  };
  return [endpoint, ...(endpoint.aliases ?? [])].map((r) => ({
    method: r.method,
    path: r.path,
    name: endpoint.path,
    handler,
  }));
}
