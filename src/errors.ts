// The one error type of the server. Every client-facing failure is an
// ApiError and is answered in the documented shape {status, message, error}:
// `error` carries a technical detail and is left out where the API says so
// (the 401 of predict, 404s).
export interface ErrorBody {
  status: number;
  message: string;
  error?: string;
}

export class ApiError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly detail?: string,
    readonly headers?: Readonly<Record<string, string>>,
  ) {
    super(message);
    this.name = 'ApiError';
  }

  toBody(): ErrorBody {
    return this.detail === undefined
      ? { status: this.status, message: this.message }
      : { status: this.status, message: this.message, error: this.detail };
  }

  /** A plain object that crosses worker-thread boundaries intact. */
  toJSON(): SerializedApiError {
    return { status: this.status, message: this.message, detail: this.detail, headers: this.headers };
  }

  static fromJSON(value: SerializedApiError): ApiError {
    return new ApiError(value.status, value.message, value.detail, value.headers);
  }
}

export interface SerializedApiError {
  status: number;
  message: string;
  detail?: string | undefined;
  headers?: Readonly<Record<string, string>> | undefined;
}

export const badRequest = (message: string, detail?: string) => new ApiError(400, message, detail);
export const notFound = (message: string) => new ApiError(404, message);

/**
 * A path into a request body as error details name it (`events.1.ssid`).
 * A segment holding characters that do not print (controls, unpaired
 * surrogates) is written with JSON's escapes.
 */
export function formatPath(path: ReadonlyArray<PropertyKey>): string {
  return path.map((segment) => (UNPRINTABLE.test(String(segment)) ? JSON.stringify(String(segment)).slice(1, -1) : String(segment))).join('.');
}

const UNPRINTABLE = /[\u0000-\u001f\p{Cs}]/u;
