// The Open Inference Protocol's REST front end (KServe's REST protocol document,
// Triton's binary tensor extension) on a port of its own (OIP_HTTP_PORT):
// its paths (/v2, /v2/models/…) are the management API's on the main port.
// A thin layer: the body's bytes to protocol terms (codec.ts) and back, the
// rest the OipService's (inference/oip/service.ts). The key is checked
// before a byte of the body is read, whose memory is then held in the
// organization's part of the shared budget while it runs. Errors answer
// the protocol's {"error": "..."} (oipErrorBody) with 400, 401, 404, 503
// (Retry-After).
import type { BodyBudget } from '../../lib/body-budget.js';
import { OipError, type OipService } from '../../inference/oip/protocol.js';
import { bearerToken } from '../../platform/inference-keys.js';
import { readGatedBody } from '../body-readers.js';
import { ApiError } from '../errors.js';
import type { Reply } from '../reply.js';
import type { Request } from '../request.js';
import type { Route } from '../router.js';
import { encodeInferResponse, headerLength, parseInferRequest } from './codec.js';

export interface OipRestDependencies {
  service: OipService;
  /** the body memory every route shares, each organization a part */
  budget: BodyBudget;
  /** bodies whose sender is not known yet */
  strangers: BodyBudget;
  /** how long a body waits for memory before 503 (QUEUE_HOLD_MS) */
  holdMs: number;
  /** the largest infer body read */
  maxBodyBytes: number;
}

const STATUS: Readonly<Record<OipError['kind'], number>> = {
  invalid: 400,
  unauthenticated: 401,
  'not-found': 404,
  unavailable: 503,
  exhausted: 429,
  internal: 500,
};

function answerOf(error: OipError): ApiError {
  const headers =
    error.retryAfterSeconds === undefined ? undefined : { 'Retry-After': String(Math.max(1, error.retryAfterSeconds)) };
  return new ApiError(STATUS[error.kind], error.message, undefined, headers, error.code);
}

/** The protocol's error body, for every error the port answers (the front end's own refusals too). */
export function oipErrorBody(error: ApiError): string {
  return JSON.stringify({ error: error.detail === undefined ? error.message : `${error.message}: ${error.detail}` });
}

type Handler = (req: Request, reply: Reply) => void | Promise<void>;

/** A handler whose protocol errors answer with their status; called synchronously, as a body reader wants. */
function protocol(handler: Handler): Handler {
  return async (req, reply) => {
    try {
      await handler(req, reply);
    } catch (error) {
      reply.error(error instanceof OipError ? answerOf(error) : error);
    }
  };
}

const json = (reply: Reply, status: number, value: unknown) => reply.send(status, JSON.stringify(value));

export function oipRoutes(deps: OipRestDependencies): Route[] {
  const { service } = deps;
  const caller = (req: Request) => service.authenticate(bearerToken(req.headers.authorization));
  const version = (req: Request) => req.params.version;

  const ready: Handler = (req, reply) => {
    const answer = service.modelReady(caller(req), req.params.name!, version(req));
    json(reply, answer ? 200 : 400, { name: req.params.name, ready: answer });
  };
  const metadata: Handler = (req, reply) => {
    const m = service.modelMetadata(caller(req), req.params.name!, version(req));
    json(reply, 200, m);
  };
  const infer: Handler = async (req, reply) => {
    const who = caller(req); // before a byte of the body is read
    const body = await readGatedBody(
      req,
      reply,
      {
        limit: deps.maxBodyBytes,
        budget: deps.budget,
        strangers: deps.strangers,
        unauthenticated: false,
        holdMs: deps.holdMs,
        tooLarge: () => new ApiError(400, `request body: larger than ${deps.maxBodyBytes} bytes`),
      },
      { owner: who.organizationId },
    );
    if (!body) return; // answered already (refused, or the client left)
    try {
      const request = parseInferRequest(
        body.bytes,
        headerLength(req.headers['inference-header-content-length'], body.bytes.byteLength),
      );
      const response = await service.infer(who, req.params.name!, version(req), request);
      const encoded = encodeInferResponse(response, request);
      if (encoded.jsonBytes === undefined) reply.send(200, encoded.body);
      else
        reply.send(200, encoded.body, 'application/octet-stream', {
          'Inference-Header-Content-Length': String(encoded.jsonBytes),
        });
    } finally {
      body.release();
    }
  };

  const routes: Array<[Route['method'], string, Handler]> = [
    ['get', '/v2/health/live', (_req, reply) => json(reply, service.live() ? 200 : 400, { live: service.live() })],
    ['get', '/v2/health/ready', (_req, reply) => json(reply, service.ready() ? 200 : 400, { ready: service.ready() })],
    ['get', '/v2', (_req, reply) => json(reply, 200, service.serverMetadata())],
    ['get', '/v2/models/:name', metadata],
    ['get', '/v2/models/:name/versions/:version', metadata],
    ['get', '/v2/models/:name/ready', ready],
    ['get', '/v2/models/:name/versions/:version/ready', ready],
    ['post', '/v2/models/:name/infer', infer],
    ['post', '/v2/models/:name/versions/:version/infer', infer],
  ];
  return routes.map(([method, path, handler]) => ({ method, path, name: `oip ${path}`, handler: protocol(handler) }));
}
