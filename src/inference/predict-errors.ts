// The error rows of the predict API (api-spec.md §7), byte for byte, plus the
// ones this server adds in the same shape. Everything that answers predict
// with an error builds it here.
import { ApiError } from '../errors.js';

export const predictErrors = {
  fileTooLarge: (bytes: number) => new ApiError(400, 'File size is too large', `filesize: ${bytes}`),
  unknownFormat: () => new ApiError(400, 'could not parse image', 'image: unknown format'),
  unreadableImage: (detail: string) => new ApiError(400, 'could not parse image', `image: ${detail}`),
  notMultipart: () =>
    new ApiError(400, 'could not parse multipart form', "request Content-Type isn't multipart/form-data"),
  badMultipart: (detail: string) => new ApiError(400, 'could not parse multipart form', detail),
  /** Go's http.ErrMissingFile text, as the original service answered. */
  missingFile: () => new ApiError(400, 'could not parse multipart form', 'http: no such file'),
  badJson: (detail: string) => new ApiError(400, 'could not parse JSON body', detail),
  badQuery: (detail: string) => new ApiError(400, 'invalid query parameter', detail),
  unauthorized: () => new ApiError(401, 'Invalid or missing API key.'),
  versionNotFound: () => new ApiError(404, 'model version not found'),
  initializing: (id: string) =>
    new ApiError(
      500,
      'could not inference model',
      `online prediction is unavailable for model version ${id}: version creation has not completed (status Initializing)`,
    ),
  loadFailed: (id: string, reason: string) =>
    new ApiError(500, 'could not inference model', `model version ${id} failed to load: ${reason}`),
  inferenceFailed: (id: string, reason: string) =>
    new ApiError(500, 'could not inference model', `inference of model version ${id} failed: ${reason}`),
  overloaded: (id: string, retryAfterSeconds: number) =>
    new ApiError(503, 'server is busy', `the request queue of model version ${id} is full`, {
      'Retry-After': String(retryAfterSeconds),
    }),
  organizationBusy: (limit: number) =>
    new ApiError(503, 'server is busy', `your organization has ${limit} predict requests in progress, its share of this server (ORGANIZATION_QUEUE_SIZE)`, {
      'Retry-After': '1',
    }),
  memoryBusy: (retryAfterSeconds: number) =>
    new ApiError(503, 'server is busy', 'too many request bodies are being received at once', {
      'Retry-After': String(retryAfterSeconds),
    }),
};
