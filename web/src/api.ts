// The console's one way to the server: the public API, with the session's
// token. Errors carry the API's own words ({status, message, error}).
import { sessionToken, signOut } from './session';

export class ApiFailure extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}

function failure(status: number, text: string): ApiFailure {
  try {
    const body = JSON.parse(text) as { message?: string; error?: string };
    return new ApiFailure(status, [body.message, body.error].filter(Boolean).join(': ') || `HTTP ${status}`);
  } catch {
    return new ApiFailure(status, `HTTP ${status}`);
  }
}

/** A rejected or expired token ends the session: the console shows the sign-in page again. */
function checkSession(status: number, authorization: string | undefined): void {
  if (status === 401 && authorization !== undefined && authorization === `Bearer ${sessionToken()}`) signOut();
}

export interface RequestOptions {
  /** another credential than the session's (predict takes an inference API key) */
  authorization?: string;
  body?: unknown;
}

async function request<T>(method: string, path: string, options: RequestOptions = {}): Promise<T> {
  return (await requestWithHeaders<T>(method, path, options)).body;
}

/** request(), with the answer's headers too (predict's X-Children-Skipped). */
export async function requestWithHeaders<T>(
  method: string,
  path: string,
  options: RequestOptions = {},
): Promise<{ body: T; headers: Headers }> {
  const token = sessionToken();
  const authorization = options.authorization ?? (token ? `Bearer ${token}` : undefined);
  const headers: Record<string, string> = {};
  if (authorization) headers.authorization = authorization;
  let body: BodyInit | undefined;
  if (options.body instanceof FormData) body = options.body;
  else if (options.body !== undefined) {
    headers['content-type'] = 'application/json';
    body = JSON.stringify(options.body);
  }
  const res = await fetch(path, { method, headers, body });
  const text = await res.text();
  if (!res.ok) {
    checkSession(res.status, authorization);
    throw failure(res.status, text);
  }
  return { body: (text ? JSON.parse(text) : undefined) as T, headers: res.headers };
}

/**
 * A streamed answer (the live event tail's server-sent events), read with
 * fetch() because EventSource cannot send the Authorization header. A
 * refusal throws like request() (a 401 with the session's token signs out).
 */
export async function openStream(path: string, signal: AbortSignal): Promise<ReadableStream<Uint8Array>> {
  const token = sessionToken();
  const authorization = token ? `Bearer ${token}` : undefined;
  const res = await fetch(path, {
    headers: authorization ? { authorization, accept: 'text/event-stream' } : { accept: 'text/event-stream' },
    signal,
  });
  if (!res.ok || !res.body) {
    const text = await res.text();
    checkSession(res.status, authorization);
    throw failure(res.status, text);
  }
  return res.body;
}

/** An answer that is bytes (a camera's kept frame), refused like request(). */
export async function getBlob(path: string, signal?: AbortSignal): Promise<Blob> {
  const token = sessionToken();
  const authorization = token ? `Bearer ${token}` : undefined;
  const res = await fetch(path, { headers: authorization ? { authorization } : {}, signal });
  if (!res.ok) {
    checkSession(res.status, authorization);
    throw failure(res.status, await res.text());
  }
  return res.blob();
}

export const get = <T>(path: string) => request<T>('GET', path);
export const post = <T>(path: string, body?: unknown) => request<T>('POST', path, { body: body ?? {} });
export const patch = <T>(path: string, body: unknown) => request<T>('PATCH', path, { body });
export const put = <T>(path: string, body: unknown) => request<T>('PUT', path, { body });
export const del = (path: string) => request<void>('DELETE', path);

/**
 * A multipart upload with its progress (fetch cannot report upload
 * progress; XMLHttpRequest can): `onProgress` gets the fraction sent.
 */
export function upload<T>(path: string, form: FormData, onProgress: (fraction: number) => void): Promise<T> {
  return new Promise((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    const authorization = `Bearer ${sessionToken()}`;
    xhr.open('POST', path);
    xhr.setRequestHeader('authorization', authorization);
    xhr.upload.onprogress = (event) => {
      if (event.lengthComputable) onProgress(event.loaded / event.total);
    };
    xhr.onload = () => {
      if (xhr.status >= 200 && xhr.status < 300) resolve(JSON.parse(xhr.responseText) as T);
      else {
        checkSession(xhr.status, authorization);
        reject(failure(xhr.status, xhr.responseText));
      }
    };
    xhr.onerror = () => reject(new ApiFailure(0, 'the upload failed: the connection was lost'));
    xhr.send(form);
  });
}
