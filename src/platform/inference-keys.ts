// Inference API keys: generation, digests, and the in-memory set the predict
// route authenticates against synchronously, before reading any body byte.
// The set is reloaded on every change (PostgreSQL NOTIFY, so all servers on
// one database agree within milliseconds) and every 30 s as a safety net.
import { randomBytes } from 'node:crypto';
import type { Sql } from 'postgres';
import * as db from '../db/inference-keys.js';
import type { InferenceKeyRow } from '../db/inference-keys.js';
import { found, notFound } from '../errors.js';
import { newId } from '../ids.js';
import type { Logger } from '../log.js';
import { sha256 } from '../lib/sha256.js';

const KEY_PREFIX = 'sk_';

/** A new key: 256 random bits, URL-safe, with a prefix that makes it recognisable in a leak scan. */
export function generateApiKey(): string {
  return KEY_PREFIX + randomBytes(32).toString('base64url');
}

export function digestApiKey(key: string): string {
  return sha256(key);
}

/** The first characters of a key, shown in lists so a user can tell keys apart. */
export function displayPrefix(key: string): string {
  return key.slice(0, KEY_PREFIX.length + 4);
}

/** The token of an `Authorization: Bearer <token>` header, or undefined. */
export function bearerToken(header: string | undefined): string | undefined {
  if (!header) return undefined;
  const match = /^Bearer\s+(\S+)\s*$/i.exec(header);
  return match?.[1];
}

export class InferenceKeyCache {
  private organizationByDigest = new Map<string, string>();
  private timer: NodeJS.Timeout | undefined;
  private unlisten: (() => Promise<void>) | undefined;

  constructor(
    private readonly sql: Sql,
    private readonly log: Logger,
  ) {}

  async start(): Promise<void> {
    await this.reload();
    const { unlisten } = await this.sql.listen('inference_api_keys', () => void this.reload());
    this.unlisten = unlisten;
    this.timer = setInterval(() => void this.reload(), 30_000);
    this.timer.unref();
  }

  async reload(): Promise<void> {
    try {
      const rows = await db.listEnabledKeyDigests(this.sql);
      this.organizationByDigest = new Map(rows.map((r) => [r.keyHash, r.organizationId]));
    } catch (error) {
      this.log.warn('could not reload inference API keys; keeping the previous set', { error: error as Error });
    }
  }

  /** The organization of an enabled key, or undefined. Synchronous: no I/O. */
  authenticate(key: string | undefined): string | undefined {
    return key ? this.organizationByDigest.get(digestApiKey(key)) : undefined;
  }

  async stop(): Promise<void> {
    clearInterval(this.timer);
    await this.unlisten?.().catch(() => {});
  }
}

/** A key as lists show it: never the key itself. */
export function presentInferenceKey(k: InferenceKeyRow) {
  return {
    id: k.id,
    name: k.name,
    prefix: k.keyPrefix,
    enabled: k.enabled,
    createdBy: k.createdBy,
    createdAt: k.createdAt,
    updatedAt: k.updatedAt,
  };
}

/**
 * Inference API keys of an organization. Every change reloads this server's
 * cache before it returns, so that the caller's next predict sees it; other
 * servers follow the NOTIFY.
 */
export class InferenceKeyService {
  constructor(
    private readonly sql: Sql,
    private readonly cache: InferenceKeyCache,
  ) {}

  list(organizationId: string): Promise<InferenceKeyRow[]> {
    return db.listInferenceKeys(this.sql, organizationId);
  }

  /** A new key of the organization: its row and the key itself, which nothing shows again. */
  async create(
    organizationId: string,
    input: { name: string; createdBy: string },
  ): Promise<{ row: InferenceKeyRow; apiKey: string }> {
    const apiKey = generateApiKey();
    const row = await db.insertInferenceKey(this.sql, {
      id: newId(),
      organizationId,
      name: input.name,
      keyHash: digestApiKey(apiKey),
      keyPrefix: displayPrefix(apiKey),
      createdBy: input.createdBy,
    });
    await this.cache.reload();
    return { row, apiKey };
  }

  async setEnabled(organizationId: string, id: string, enabled: boolean): Promise<InferenceKeyRow> {
    const row = found(await db.setInferenceKeyEnabled(this.sql, organizationId, id, enabled), 'api key');
    await this.cache.reload();
    return row;
  }

  async delete(organizationId: string, id: string): Promise<void> {
    if (!(await db.deleteInferenceKey(this.sql, organizationId, id))) throw notFound('api key not found');
    await this.cache.reload();
  }
}
