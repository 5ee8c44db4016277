// The errors the domain throws. Each says what went wrong in the domain's
// terms (its kind), a message and a technical detail; it knows nothing of
// HTTP. The front end (http/errors.ts) gives each kind its status and
// answers it in the documented shape {status, message, error}, `error`
// being the detail, left out where the API says so (the 401 of predict, 404s).

/** What went wrong; http/errors.ts maps each to its status. */
export type ErrorKind =
  /** the request's content is wrong: a field, a format, an image */
  | 'invalid'
  /** no credentials, or ones that are not valid */
  | 'unauthenticated'
  /** valid credentials that do not allow this */
  | 'forbidden'
  | 'not-found'
  /** the state of a resource does not allow it (exists already, was deleted meanwhile) */
  | 'conflict'
  | 'too-large'
  /** the caller is over its rate; retry after `retryAfterSeconds` */
  | 'throttled'
  /** the server cannot take it now; retry after `retryAfterSeconds` */
  | 'unavailable'
  /** the operation failed on the server's side in a way the API documents (predict's "could not inference model") */
  | 'failed';

export class DomainError extends Error {
  constructor(
    readonly kind: ErrorKind,
    message: string,
    readonly detail?: string,
    readonly retryAfterSeconds?: number,
  ) {
    super(message);
    this.name = 'DomainError';
  }

  /** A plain object that crosses worker-thread boundaries intact. */
  toJSON(): SerializedDomainError {
    return { kind: this.kind, message: this.message, detail: this.detail, retryAfterSeconds: this.retryAfterSeconds };
  }

  static fromJSON(value: SerializedDomainError): DomainError {
    return new DomainError(value.kind, value.message, value.detail, value.retryAfterSeconds);
  }
}

export interface SerializedDomainError {
  kind: ErrorKind;
  message: string;
  detail?: string | undefined;
  retryAfterSeconds?: number | undefined;
}

export const invalid = (message: string, detail?: string) => new DomainError('invalid', message, detail);
export const notFound = (message: string) => new DomainError('not-found', message);

/**
 * A request named, as the scope of its work (not as the resource addressed by
 * its path), a project, channel or device that is not its organization's. The
 * platform answered these 401 "you dont have access to this …" (docs/CONTRACT.md#v2-errors).
 */
export class OutOfOrganizationError extends DomainError {
  constructor(
    readonly resource: 'project' | 'channel' | 'device',
    readonly id: string,
  ) {
    super('not-found', `${resource} not found`, `no ${resource} ${id} in the organization of the token`);
    this.name = 'OutOfOrganizationError';
  }
}

/** `value`, or the not-found error of `what` ("gateway" → "gateway not found") when there is none. */
export function found<T>(value: T | undefined, what: string): T {
  if (value === undefined) throw notFound(`${what} not found`);
  return value;
}

/**
 * A path into a request body as error details name it (`events.1.ssid`).
 * A segment holding characters that do not print (controls, unpaired
 * surrogates) is written with JSON's escapes.
 */
export function formatPath(path: ReadonlyArray<PropertyKey>): string {
  return path.map((segment) => (UNPRINTABLE.test(String(segment)) ? JSON.stringify(String(segment)).slice(1, -1) : String(segment))).join('.');
}

const UNPRINTABLE = /[\u0000-\u001f\p{Cs}]/u;
