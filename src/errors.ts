// The errors the domain throws. Each says what went wrong in the domain's
// terms (its kind), a message and a technical detail; it knows nothing of
// HTTP. The front end (http/errors.ts) gives each kind its status and
// answers it in the documented shape {status, message, error}, `error`
// being the detail, left out where the API says so (the 401 of predict, 404s).
//
// Every error class of the domains is a CodedError: it has a stable code
// (ERROR_CODES, docs/ERROR-CODES.md), logged with it and counted in
// /metrics, never part of an answer. Code classifies an error by its class
// or code, never by its message. An error crosses a thread or process
// boundary as one ErrorEnvelope (serializeError, deserializeError) and
// arrives as the same class with the same code.

/**
 * The codes, fixed (the metric's label takes no other value). A DomainError
 * has its kind's code unless it names its own; UNCODED is anything without
 * one (a bug, a library's error).
 */
export const ERROR_CODES = [
  // DomainError, by kind
  'INVALID',
  'UNAUTHENTICATED',
  'FORBIDDEN',
  'NOT_FOUND',
  'CONFLICT',
  'TOO_LARGE',
  'THROTTLED',
  'UNAVAILABLE',
  'FAILED',
  'OUT_OF_ORGANIZATION',
  // inference
  'MODEL_CONFIG_INVALID',
  'MODEL_NOT_ONNX',
  'MODEL_EXTERNAL_DATA_REFUSED',
  'MODEL_GRAPH_INVALID',
  'MODEL_WIRE_FORMAT',
  'MODEL_FLOAT16_FAILED',
  'MODEL_LOAD_FAILED',
  'MODEL_OUTPUT_SHAPE',
  'MODEL_OUT_OF_MEMORY',
  'MODEL_VALIDATION_FAILED',
  'MODEL_VALIDATION_ABORTED',
  'INSTANCE_LOAD_FAILED',
  'INSTANCE_RESTARTING',
  'NO_INSTANCE',
  'JPEG_DECODER_FAILED',
  'MULTIPART_INVALID',
  'UTF8_INVALID',
  // platform: rules and their actions
  'SECRET_UNOPENABLE',
  'CONDITION_INVALID',
  'EXPRESSION_SYNTAX',
  'EVALUATION_OVERRUN',
  'TEMPLATE_RENDER_FAILED',
  'WEBHOOK_BLOCKED',
  'WEBHOOK_TIMED_OUT',
  'ACTION_RETRYABLE',
  'ACTION_FAILED',
  // ingest
  'INGEST_MALFORMED_WIRE',
  'UNCODED',
] as const;

export type ErrorCode = (typeof ERROR_CODES)[number];

/** What an error holds besides its message, as plain data (JSON and structured clone keep it). */
export type ErrorDetails = Record<string, string | number | boolean | null | undefined>;

/** An error of a domain: its class has a stable code. */
export abstract class CodedError extends Error {
  abstract readonly code: ErrorCode;

  /** What its envelope carries besides the message: what the class's reviver needs. */
  details(): ErrorDetails | undefined {
    return undefined;
  }
}

/** An error as it crosses a thread or process boundary. */
export interface ErrorEnvelope {
  code: ErrorCode;
  name: string;
  message: string;
  details?: ErrorDetails;
}

type Reviver = (envelope: ErrorEnvelope) => Error;
const REVIVERS = new Map<ErrorCode, Reviver>();

/**
 * How an envelope of `code` becomes its class again; each class registers
 * itself where it is defined (a `static` block). One class per code.
 */
export function revivable(code: ErrorCode, revive: Reviver): void {
  if (REVIVERS.has(code)) throw new Error(`two error classes claim the code ${code}`);
  REVIVERS.set(code, revive);
}

/** The code of any thrown value: its class's, or UNCODED. */
export function errorCode(error: unknown): ErrorCode {
  return error instanceof CodedError ? error.code : 'UNCODED';
}

/** Any thrown value as an envelope (postMessage, process IPC, a JSON line). */
export function serializeError(error: unknown): ErrorEnvelope {
  if (!(error instanceof Error)) return { code: 'UNCODED', name: 'Error', message: String(error) };
  const envelope: ErrorEnvelope = { code: errorCode(error), name: error.name, message: error.message };
  const details = error instanceof CodedError ? error.details() : undefined;
  if (details !== undefined) envelope.details = details;
  return envelope;
}

/**
 * The error an envelope carries: an instance of the class that registered
 * its code, or, for UNCODED and a class this process never loaded, a
 * RemoteError with the envelope's code, name and message.
 */
export function deserializeError(envelope: ErrorEnvelope): Error {
  const revive = REVIVERS.get(envelope.code);
  return revive ? revive(envelope) : new RemoteError(envelope);
}

/** An error from the other side of a boundary whose class is not known here. */
export class RemoteError extends CodedError {
  readonly code: ErrorCode;
  constructor(envelope: ErrorEnvelope) {
    super(envelope.message);
    this.code = envelope.code;
    this.name = envelope.name;
  }
}

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

/** Each kind's code: a DomainError's unless it names its own. */
const KIND_CODES: Readonly<Record<ErrorKind, ErrorCode>> = {
  invalid: 'INVALID',
  unauthenticated: 'UNAUTHENTICATED',
  forbidden: 'FORBIDDEN',
  'not-found': 'NOT_FOUND',
  conflict: 'CONFLICT',
  'too-large': 'TOO_LARGE',
  throttled: 'THROTTLED',
  unavailable: 'UNAVAILABLE',
  failed: 'FAILED',
};

export class DomainError extends CodedError {
  readonly code: ErrorCode;

  constructor(
    readonly kind: ErrorKind,
    message: string,
    readonly detail?: string,
    readonly retryAfterSeconds?: number,
    code?: ErrorCode,
  ) {
    super(message);
    this.name = 'DomainError';
    this.code = code ?? KIND_CODES[kind];
  }

  override details(): ErrorDetails {
    return { kind: this.kind, detail: this.detail, retryAfterSeconds: this.retryAfterSeconds };
  }

  static {
    const revive = ({ code, message, details = {} }: ErrorEnvelope) =>
      new DomainError(
        details.kind as ErrorKind,
        message,
        details.detail as string | undefined,
        details.retryAfterSeconds as number | undefined,
        code,
      );
    for (const code of Object.values(KIND_CODES)) revivable(code, revive);
  }
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
    super(
      'not-found',
      `${resource} not found`,
      `no ${resource} ${id} in the organization of the token`,
      undefined,
      'OUT_OF_ORGANIZATION',
    );
    this.name = 'OutOfOrganizationError';
  }

  override details(): ErrorDetails {
    return { resource: this.resource, id: this.id };
  }

  static {
    revivable(
      'OUT_OF_ORGANIZATION',
      ({ details = {} }) =>
        new OutOfOrganizationError(details.resource as OutOfOrganizationError['resource'], String(details.id)),
    );
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
  return path
    .map((segment) =>
      UNPRINTABLE.test(String(segment)) ? JSON.stringify(String(segment)).slice(1, -1) : String(segment),
    )
    .join('.');
}

const UNPRINTABLE = /[\u0000-\u001f\p{Cs}]/u;
