// POST /v1/models/:modelVersionId/predict (api-spec.md §4.1). Everything
// that can fail without the body fails before a byte of it is buffered:
// authentication, the version's state, the content type, query parameters,
// the queue and the memory budget.
import type { InferenceService } from '../../inference/service.js';
import { parsePredictOptions } from '../../inference/predict-options.js';
import { predictErrors } from '../../inference/predict-errors.js';
import { predictBodyKind, predictBodyLimit } from '../../inference/request-body.js';
import { bearerToken, type InferenceKeyCache } from '../../platform/inference-keys.js';
import { BodyTooLargeError, declaredLength, readBody, type BodyBudget, type Request, type Route } from '../server.js';

export interface PredictRouteDeps {
  inference: InferenceService;
  keys: InferenceKeyCache;
  budget: BodyBudget;
  maxImageBytes: number;
}

/** Refused bodies up to this size are read and dropped, keeping the connection open. */
const SMALL_BODY_BYTES = 64 * 1024;

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
  return { version, contentType, kind, options, limit, reserve };
}

export function predictRoute(deps: PredictRouteDeps): Route {
  return {
    method: 'post',
    path: '/v1/models/:modelVersionId/predict',
    name: '/v1/models/:modelVersionId/predict',
    handler(req, reply) {
      const { version, contentType, kind, options, limit, reserve } = check(deps, req);
      const ticket = deps.inference.enqueue(version);
      let reserved = false;
      let body: Promise<Uint8Array>;
      try {
        if (!ticket.wait) {
          if (!deps.budget.tryReserve(reserve)) throw predictErrors.memoryBusy(1);
          reserved = true;
        }
        body = readBody(req, reply, limit);
      } catch (error) {
        ticket.release();
        throw error;
      }
      body.catch(() => {}); // awaited below, unless the request ends before
      // A held request's body stays in the client's socket until its turn.
      let gone = false;
      if (ticket.wait) {
        req.raw.pause();
        reply.onAbort(() => {
          gone = true;
          ticket.release();
        });
      }

      return (async () => {
        try {
          if (ticket.wait) {
            try {
              await ticket.wait;
            } catch (error) {
              if (gone) return;
              if (reserve > SMALL_BODY_BYTES) {
                // Still unread: close rather than read a large body only to drop it.
                reply.error(error, true);
                return;
              }
              // A small body is cheaper to read than a new connection; the connection stays.
              req.raw.resume();
              await body.catch(() => undefined);
              reply.error(error);
              return;
            }
            if (gone) return;
            if (!deps.budget.tryReserve(reserve)) {
              reply.error(predictErrors.memoryBusy(1), true);
              return;
            }
            reserved = true;
            req.raw.resume();
          }
          const bytes = await body;
          reply.send(200, await deps.inference.predict(version, bytes, contentType, options));
        } catch (error) {
          if (!(error instanceof BodyTooLargeError)) throw error;
          // For JSON the limit applies to the decoded image: report the size the body implies.
          const imageBytes = kind === 'json' ? Math.floor((error.bytes * 3) / 4) : error.bytes;
          reply.error(predictErrors.fileTooLarge(imageBytes), error.closeConnection);
        } finally {
          ticket.release();
          if (reserved) deps.budget.release(reserve);
        }
      })();
    },
  };
}
