// A small client for the management API in tests, and ways to get tokens
// for a second, unrelated organization (for isolation tests).
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import postgres from 'postgres';
import { decodeSecretsKey, Secrets } from '../../src/platform/secrets.js';
import type { TestServer } from './server.js';

export interface ApiResponse<T = any> {
  status: number;
  headers: Headers;
  body: T;
}

export class Api {
  constructor(
    readonly baseUrl: string,
    readonly token?: string,
  ) {}

  withToken(token: string): Api {
    return new Api(this.baseUrl, token);
  }

  /** The same user on another server (a replica of the same database). */
  withBaseUrl(baseUrl: string): Api {
    return new Api(baseUrl, this.token);
  }

  async request<T = any>(
    method: string,
    path: string,
    body?: unknown,
    headers: Record<string, string> = {},
  ): Promise<ApiResponse<T>> {
    const h: Record<string, string> = { ...headers };
    if (this.token) h.authorization = `Bearer ${this.token}`;
    let payload: string | undefined;
    if (body !== undefined) {
      h['content-type'] ??= 'application/json';
      payload = typeof body === 'string' ? body : JSON.stringify(body);
    }
    const res = await fetch(`${this.baseUrl}${path}`, { method, headers: h, body: payload });
    const text = await res.text();
    let parsed: unknown = text;
    try {
      parsed = text ? JSON.parse(text) : undefined;
    } catch {
      // not JSON
    }
    return { status: res.status, headers: res.headers, body: parsed as T };
  }

  get<T = any>(path: string) {
    return this.request<T>('GET', path);
  }
  post<T = any>(path: string, body?: unknown) {
    return this.request<T>('POST', path, body ?? {});
  }
  patch<T = any>(path: string, body: unknown) {
    return this.request<T>('PATCH', path, body);
  }
  put<T = any>(path: string, body: unknown) {
    return this.request<T>('PUT', path, body);
  }
  delete<T = any>(path: string) {
    return this.request<T>('DELETE', path);
  }

  async login(email: string, password: string): Promise<Api> {
    const res = await this.post<{ token: string }>('/v2/login', { email, password });
    if (res.status !== 200) throw new Error(`login failed: ${res.status} ${JSON.stringify(res.body)}`);
    return this.withToken(res.body.token);
  }
}

/** The URL of the server's database: `databaseUrl` when it has one, else its embedded cluster's. */
export async function serverDatabaseUrl(server: Pick<TestServer, 'dataDir'>, databaseUrl?: string): Promise<string> {
  if (databaseUrl) return databaseUrl;
  const password = (await readFile(join(server.dataDir, 'postgres-password'), 'utf8')).trim();
  const port = Number((await readFile(join(server.dataDir, 'postgres', 'postmaster.pid'), 'utf8')).split('\n')[3]);
  return `postgres://postgres:${encodeURIComponent(password)}@127.0.0.1:${port}/sense`;
}

/** A client of the server's database (embedded: found through its data directory). */
export async function serverSql(server: Pick<TestServer, 'dataDir'>, databaseUrl?: string): Promise<postgres.Sql> {
  return postgres(await serverDatabaseUrl(server, databaseUrl), {
    max: 2,
    onnotice: () => {},
    transform: { column: { from: postgres.toCamel, to: postgres.fromCamel } },
  });
}

/** The one-time token inside the newest outbox email to `to` (as an operator would read it). */
/**
 * Email bodies are sealed at rest with the server's secrets key: tests open
 * them with the key from the server's DATA_DIR (rememberServerKey).
 */
const serverKeys = new WeakMap<object, string>();

export function rememberServerKey(sql: postgres.Sql, dataDir: string): void {
  serverKeys.set(sql, dataDir);
}

/** The newest email body to `to`, opened. */
export async function outboxBody(sql: postgres.Sql, to: string): Promise<string | undefined> {
  const [row] = await sql<
    { body: string }[]
  >`SELECT body FROM outbox_emails WHERE to_address = ${to} ORDER BY created_at DESC, id DESC LIMIT 1`;
  if (!row) return undefined;
  const dataDir = serverKeys.get(sql);
  if (!dataDir) throw new Error('outboxBody: rememberServerKey(sql, server.dataDir) first');
  return new Secrets(decodeSecretsKey(await readFile(join(dataDir, 'secrets-key'), 'utf8'))).open(row.body);
}

export async function tokenFromOutbox(sql: postgres.Sql, to: string): Promise<string> {
  const body = await outboxBody(sql, to);
  const match = body !== undefined && /"token": "([^"]+)"/.exec(body);
  if (!match) throw new Error(`no token email for ${to}`);
  return match[1]!;
}

export const ADMIN = { email: 'admin@example.com', password: 'admin-password-1' };

/** Signs up a new user with their own organization and returns an API client logged into it. */
export async function signUpTenant(
  api: Api,
  sql: postgres.Sql,
  email: string,
  organizationName = `${email} org`,
): Promise<Api> {
  const password = 'tenant-password-1';
  const signup = await api.post('/v2/signup', { email, password, name: email.split('@')[0], organizationName });
  if (signup.status !== 204) throw new Error(`signup failed: ${signup.status} ${JSON.stringify(signup.body)}`);
  const verified = await api.post<{ token: string }>('/v2/verify-email', { token: await tokenFromOutbox(sql, email) });
  if (verified.status !== 200) throw new Error(`verify failed: ${verified.status}`);
  return api.login(email, password);
}

/** Uploads model.onnx and/or model.json as a new version of a model (multipart, as the console would). */
export async function uploadModelVersion(
  serverUrl: string,
  api: Api,
  modelId: string,
  parts: { model?: Uint8Array; config?: unknown },
  query = '',
) {
  const form = new FormData();
  if (parts.model) form.append('model', new Blob([parts.model]), 'model.onnx');
  if (parts.config !== undefined)
    form.append(
      'config',
      new Blob([typeof parts.config === 'string' ? parts.config : JSON.stringify(parts.config)]),
      'model.json',
    );
  const res = await fetch(`${serverUrl}/v2/models/${modelId}/versions${query}`, {
    method: 'POST',
    headers: { authorization: `Bearer ${api.token}` },
    body: form,
  });
  return { status: res.status, body: (await res.json()) as any };
}
