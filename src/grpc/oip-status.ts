// What the gRPC front end answers for an error: the one place a status code is
// chosen. The OipService throws OipErrors, each mapped here by its kind (as
// the protocol's gRPC side says: INVALID_ARGUMENT, UNAUTHENTICATED,
// NOT_FOUND, UNAVAILABLE / RESOURCE_EXHAUSTED with the retry hint); a
// DomainError that reaches the front end past the service is mapped by its
// kind the same way; anything else is a bug, logged and answered INTERNAL
// without its message.
import { Metadata, status } from '@grpc/grpc-js';
import { DomainError, type ErrorKind, errorCode } from '../errors.js';
import { type OipErrorKind, OipError } from '../inference/oip/protocol.js';
import type { Logger } from '../log.js';

const OIP_STATUS: Readonly<Record<OipErrorKind, status>> = {
  invalid: status.INVALID_ARGUMENT,
  unauthenticated: status.UNAUTHENTICATED,
  'not-found': status.NOT_FOUND,
  unavailable: status.UNAVAILABLE,
  exhausted: status.RESOURCE_EXHAUSTED,
  internal: status.INTERNAL,
};

const DOMAIN_STATUS: Readonly<Record<ErrorKind, status>> = {
  invalid: status.INVALID_ARGUMENT,
  unauthenticated: status.UNAUTHENTICATED,
  forbidden: status.PERMISSION_DENIED,
  'not-found': status.NOT_FOUND,
  conflict: status.FAILED_PRECONDITION,
  'too-large': status.INVALID_ARGUMENT,
  throttled: status.RESOURCE_EXHAUSTED,
  unavailable: status.UNAVAILABLE,
  failed: status.INTERNAL,
};

/** The trailing metadata key of the retry hint: whole seconds, as HTTP's Retry-After. */
export const RETRY_AFTER_KEY = 'retry-after';

export interface GrpcErrorStatus {
  code: status;
  details: string;
  metadata: Metadata;
}

/** The status answering `error`; one that is no client's mistake is logged on `log` and answered INTERNAL without its details. */
export function grpcStatusOf(error: unknown, log: Logger): GrpcErrorStatus {
  const metadata = new Metadata();
  if (error instanceof OipError || error instanceof DomainError) {
    if (error.retryAfterSeconds !== undefined) metadata.set(RETRY_AFTER_KEY, String(error.retryAfterSeconds));
    const code = error instanceof OipError ? OIP_STATUS[error.kind] : DOMAIN_STATUS[error.kind];
    return { code, details: error.message, metadata };
  }
  log.error('OIP gRPC call failed', { error, code: errorCode(error) });
  return { code: status.INTERNAL, details: 'internal error', metadata };
}

/** A stream's error_message for one request: the status's name and details, and the retry hint in words. */
export function streamErrorMessage(error: GrpcErrorStatus): string {
  const retry = error.metadata.get(RETRY_AFTER_KEY)[0];
  return `${status[error.code]}: ${error.details}${retry === undefined ? '' : ` (retry after ${String(retry)} s)`}`;
}
