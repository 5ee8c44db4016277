// Errors as HTTP answers: the one place a status is chosen. The domain
// throws DomainErrors (src/errors.ts), each mapped here by its kind; the
// front end's own refusals (a body too large or too slow, an unknown route)
// are ApiErrors with their status. Both are answered in the documented
// shape {status, message, error}; a domain error's code (errors.ts) is
// logged and counted, never answered.
import { DomainError, type ErrorCode, type ErrorKind } from '../errors.js';

export interface ErrorBody {
  status: number;
  message: string;
  error?: string;
}

const STATUS_OF: Readonly<Record<ErrorKind, number>> = {
  invalid: 400,
  unauthenticated: 401,
  forbidden: 403,
  'not-found': 404,
  conflict: 409,
  'too-large': 413,
  throttled: 429,
  // predict's documented "could not inference model" (docs/CONTRACT.md#predict-errors)
  failed: 500,
  unavailable: 503,
};

export class ApiError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly detail?: string,
    readonly headers?: Readonly<Record<string, string>>,
    /** the code of the domain error it answers; undefined for the front end's own refusals */
    readonly code?: ErrorCode,
  ) {
    super(message);
    this.name = 'ApiError';
  }

  toBody(): ErrorBody {
    return this.detail === undefined
      ? { status: this.status, message: this.message }
      : { status: this.status, message: this.message, error: this.detail };
  }

  /** The answer to a domain error, or undefined for anything else (a bug: a logged 500). */
  static from(error: unknown): ApiError | undefined {
    if (error instanceof ApiError) return error;
    if (!(error instanceof DomainError)) return undefined;
    const headers =
      error.retryAfterSeconds === undefined ? undefined : { 'Retry-After': String(error.retryAfterSeconds) };
    return new ApiError(STATUS_OF[error.kind], error.message, error.detail, headers, error.code);
  }
}
