// POST /v1/models/:modelVersionId/predict (api-spec.md §4.1). Everything
// that can fail without the body fails before a byte of it is buffered:
// authentication, the version's state, the content type, query parameters,
// the queue and the memory budget.
import type { ApiError } from '../../errors.js';
import type { InferenceService, QueueTicket } from '../../inference/service.js';
import { imageSizeCounter } from '../../inference/image-size.js';
import { parsePredictOptions } from '../../inference/predict-options.js';
import { predictErrors } from '../../inference/predict-errors.js';
import { predictBodyKind, predictBodyLimit } from '../../inference/request-body.js';
import { bearerToken, type InferenceKeyCache } from '../../platform/inference-keys.js';
import type { BodyBudget } from '../body-budget.js';
import { BodyTooLargeError, declaredLength, pauseBody, readBody, resumeBody, SMALL_BODY_BYTES, type Request, type Route } from '../server.js';

export interface PredictRouteDeps {
  inference: InferenceService;
  keys: InferenceKeyCache;
  budget: BodyBudget;
  maxImageBytes: number;
  /** how long a request waits for body memory before 503 (QUEUE_HOLD_MS) */
  holdMs: number;
}

/** Everything decided before the body: key, version, content type, query. */
function check(deps: PredictRouteDeps, req: Request) {
  const organizationId = deps.keys.authenticate(bearerToken(req.headers.authorization));
  if (!organizationId) throw predictErrors.unauthorized();
  const version = deps.inference.admit(req.params.modelVersionId!, organizationId);
  const contentType = req.headers['content-type'] ?? '';
  const kind = predictBodyKind(contentType);
  if (!kind) throw predictErrors.notMultipart();
  const options = parsePredictOptions(req.query, version.config.defaults);
  const limit = predictBodyLimit(kind, deps.maxImageBytes);
  const reserve = Math.min(declaredLength(req) ?? limit, limit);
  return { organizationId, version, contentType, kind, options, limit, reserve };
}

export function predictRoute(deps: PredictRouteDeps): Route {
  return {
    method: 'post',
    path: '/v1/models/:modelVersionId/predict',
    name: '/v1/models/:modelVersionId/predict',
    handler(req, reply) {
      const { organizationId, version, contentType, kind, options, limit, reserve } = check(deps, req);
      const large = reserve > SMALL_BODY_BYTES;
      let ticket: QueueTicket;
      try {
        ticket = deps.inference.enqueue(version, organizationId);
      } catch (error) {
        // Shed before a byte is read: a large body is not read only to be dropped.
        reply.error(error, large);
        return;
      }
      const body = readBody(req, reply, limit, () => imageSizeCounter(kind, contentType));
      body.catch(() => {}); // awaited below, unless the request ends before
      let gone = false;
      reply.onAbort(() => {
        gone = true;
        ticket.release();
      });
      let reserved = ticket.wait === null && deps.budget.tryReserve(reserve, organizationId);
      // A request that must wait (for a queue place or body memory) leaves its
      // body in the client's socket until its turn: no memory, no CPU.
      if (!reserved) pauseBody(req);

      return (async () => {
        try {
          if (!reserved) {
            const refusal = await waitForTurn(deps, ticket, reserve, organizationId);
            reserved = refusal === undefined;
            if (gone) return;
            if (refusal) {
              if (large) {
                reply.error(refusal, true);
                return;
              }
              // A small body is cheaper to read than a new connection; the connection stays.
              resumeBody(req);
              await body.catch(() => undefined);
              reply.error(refusal);
              return;
            }
            resumeBody(req);
          }
          const bytes = await body;
          reply.send(200, await deps.inference.predict(version, bytes, contentType, options));
        } catch (error) {
          if (!(error instanceof BodyTooLargeError)) throw error;
          // The image's size, counted while the body was dropped; for a body
          // too large to read through, the size its length implies.
          const imageBytes = error.measured ?? (kind === 'json' ? Math.floor((error.bytes * 3) / 4) : error.bytes);
          reply.error(predictErrors.fileTooLarge(imageBytes), error.closeConnection);
        } finally {
          ticket.release();
          if (reserved) deps.budget.release(reserve, organizationId);
        }
      })();
    },
  };
}

/** Waits for a queue place, then for body memory; the 503 to answer if either does not come in time. */
async function waitForTurn(deps: PredictRouteDeps, ticket: QueueTicket, reserve: number, organizationId: string): Promise<ApiError | undefined> {
  try {
    await ticket.wait;
  } catch (error) {
    return error as ApiError;
  }
  return (await deps.budget.reserve(reserve, organizationId, deps.holdMs)) ? undefined : predictErrors.memoryBusy(1);
}
