// POST /v1/models/:modelVersionId/predict (api-spec.md §4.1). Everything
// that can fail without the body fails before a byte of it is buffered:
// authentication, the version's state, the content type, query parameters,
// the queue and the memory budget.
import type { InferenceService } from '../../inference/service.js';
import { parsePredictOptions } from '../../inference/predict-options.js';
import { predictErrors } from '../../inference/predict-errors.js';
import { predictBodyKind, predictBodyLimit } from '../../inference/request-body.js';
import { bearerToken, type InferenceKeyCache } from '../../platform/inference-keys.js';
import { BodyTooLargeError, readBody, type BodyBudget, type Route } from '../server.js';

export interface PredictRouteDeps {
  inference: InferenceService;
  keys: InferenceKeyCache;
  budget: BodyBudget;
  maxImageBytes: number;
}

export function predictRoute(deps: PredictRouteDeps): Route {
  return {
    method: 'post',
    path: '/v1/models/:modelVersionId/predict',
    name: '/v1/models/:modelVersionId/predict',
    handler(req, reply) {
      const organizationId = deps.keys.authenticate(bearerToken(req.headers.authorization));
      if (!organizationId) throw predictErrors.unauthorized();
      const version = deps.inference.admit(req.params.modelVersionId!, organizationId);
      const contentType = req.headers['content-type'] ?? '';
      const kind = predictBodyKind(contentType);
      if (!kind) throw predictErrors.notMultipart();
      const options = parsePredictOptions(req.query, version.config.defaults);

      const limit = predictBodyLimit(kind, deps.maxImageBytes);
      const declared = Number(req.headers['content-length'] ?? limit);
      const reserved = Math.min(Number.isFinite(declared) ? declared : limit, limit);
      if (!deps.budget.tryReserve(reserved)) throw predictErrors.memoryBusy(1);
      const body = readBody(req, reply, limit);

      return (async () => {
        try {
          const bytes = await body;
          reply.send(200, await deps.inference.predict(version, bytes, contentType, options));
        } catch (error) {
          if (!(error instanceof BodyTooLargeError)) throw error;
          // For JSON the limit applies to the decoded image: report the size the body implies.
          const imageBytes = kind === 'json' ? Math.floor((error.bytes * 3) / 4) : error.bytes;
          reply.error(predictErrors.fileTooLarge(imageBytes), error.closeConnection);
        } finally {
          deps.budget.release(reserved);
        }
      })();
    },
  };
}
