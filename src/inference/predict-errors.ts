// The error rows of the predict API (docs/CONTRACT.md#predict-errors), byte for byte, plus the
// ones this server adds in the same shape. Everything that answers predict
// with an error builds it here; http/errors.ts gives each kind its status.
import { DomainError, invalid, notFound } from '../errors.js';

export const predictErrors = {
  fileTooLarge: (bytes: number) => invalid('File size is too large', `filesize: ${bytes}`),
  unknownFormat: () => invalid('could not parse image', 'image: unknown format'),
  unreadableImage: (detail: string) => invalid('could not parse image', `image: ${detail}`),
  notMultipart: () => invalid('could not parse multipart form', "request Content-Type isn't multipart/form-data"),
  badMultipart: (detail: string) => invalid('could not parse multipart form', detail),
  /** A form without the "file" part: says which parts it had, since a wrong field name is the usual cause. */
  missingFile: (parts: readonly string[]) =>
    invalid(
      'could not parse multipart form',
      `no "file" part in the form: send the image as the multipart field "file" (${
        parts.length
          ? `the form had ${parts
              .slice(0, 5)
              .map((p) => JSON.stringify(p.slice(0, 64)))
              .join(', ')}${parts.length > 5 ? ', …' : ''}`
          : 'the form had no parts'
      })`,
    ),
  emptyImage: (field: string) =>
    invalid(
      'could not parse image',
      `image: ${field} is empty (0 bytes): expected a JPG, PNG, GIF, BMP, TIFF or WEBP image`,
    ),
  badJson: (detail: string) => invalid('could not parse JSON body', detail),
  badQuery: (detail: string) => invalid('invalid query parameter', detail),
  unauthorized: () => new DomainError('unauthenticated', 'Invalid or missing API key.'),
  versionNotFound: () => notFound('model version not found'),
  initializing: (id: string) =>
    new DomainError(
      'failed',
      'could not inference model',
      `online prediction is unavailable for model version ${id}: version creation has not completed (status Initializing)`,
    ),
  loadFailed: (id: string, reason: string) =>
    new DomainError('failed', 'could not inference model', `model version ${id} failed to load: ${reason}`),
  inferenceFailed: (id: string, reason: string) =>
    new DomainError('failed', 'could not inference model', `inference of model version ${id} failed: ${reason}`),
  /** An input tensor for a version whose sessions run the rewritten model, not the model as exported (the Open Inference Protocol's tensors in). */
  tensorsNotServed: (id: string, why: string) =>
    invalid(
      'tensor inputs are not served by this model version',
      `its sessions run the model rewritten (${why}), not as exported: send encoded images, or serve it with GRAPH_REWRITE=off (model version ${id})`,
    ),
  /** The request's isolated instance process died under it (`how`) and is starting again: sending it again is safe. */
  instanceRestarting: (id: string, how: string, retryAfterSeconds: number) =>
    new DomainError(
      'unavailable',
      'could not inference model',
      `the instance of model version ${id} ${how} while running this request; it is restarting: send it again`,
      retryAfterSeconds,
    ),
  /** `reason`: which budget of isolated instances' resident memory is held by requests in flight (model-cache.ts residentRefusal) */
  isolatedMemoryBusy: (reason: string) => new DomainError('unavailable', 'server is busy', reason, 1),
  overloaded: (id: string, retryAfterSeconds: number) =>
    new DomainError(
      'unavailable',
      'server is busy',
      `the request queue of model version ${id} is full`,
      retryAfterSeconds,
    ),
  organizationBusy: (limit: number) =>
    new DomainError(
      'unavailable',
      'server is busy',
      `your organization has ${limit} predict requests in progress, its share of this server (ORGANIZATION_QUEUE_SIZE)`,
      1,
    ),
  memoryBusy: (retryAfterSeconds: number) =>
    new DomainError(
      'unavailable',
      'server is busy',
      'too many request bodies are being received at once',
      retryAfterSeconds,
    ),
};
