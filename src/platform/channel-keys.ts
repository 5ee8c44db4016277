// Channel API keys: the credential a device presents to the ingestion API
// (POST /v1/registration {apiKey}). Generated like inference keys (256 random
// bits), stored only as SHA-256 digests; the plaintext is returned once, by
// the request that creates it.
import type { Sql } from 'postgres';
import { newId } from '../ids.js';
import * as db from '../db/channels.js';
import type { ChannelKeyIdentity, ChannelKeyRow } from '../db/channels.js';
import type { Queryable } from '../db/database.js';
import { found, notFound } from '../errors.js';
import { digestApiKey, displayPrefix, generateApiKey } from './inference-keys.js';

export type { ChannelKeyIdentity } from '../db/channels.js';

/** Longer strings cannot be keys; they are refused without hashing. */
const MAX_KEY_LENGTH = 256;

/** A key as lists show it: never the key itself. */
export function presentChannelKey(row: ChannelKeyRow) {
  return {
    id: row.id,
    prefix: row.keyPrefix,
    enabled: row.enabled,
    createdAt: row.createdAt,
    updatedAt: row.updatedAt,
  };
}

/** A just-created key: the only response that carries the plaintext `apiKey`. */
export function presentNewChannelKey(row: ChannelKeyRow, apiKey: string) {
  return {
    id: row.id,
    apiKey,
    prefix: row.keyPrefix,
    enabled: row.enabled,
    createdAt: row.createdAt,
    updatedAt: row.updatedAt,
  };
}

/** Makes a key for a channel known to be the organization's (one just created, or checked). */
export async function insertNewChannelKey(
  sql: Queryable,
  organizationId: string,
  channelId: string,
): Promise<{ row: ChannelKeyRow; apiKey: string }> {
  const apiKey = generateApiKey();
  const row = await db.insertChannelKey(sql, {
    id: newId(),
    organizationId,
    channelId,
    keyHash: digestApiKey(apiKey),
    keyPrefix: displayPrefix(apiKey),
  });
  return { row, apiKey };
}

/** The API keys of channels, and the authentication of a device's key. */
export class ChannelKeyService {
  constructor(private readonly sql: Sql) {}

  /** Every key operation first finds the channel in the caller's organization: another organization's is not found. */
  private async requireChannel(organizationId: string, channelId: string): Promise<void> {
    found(await db.findChannel(this.sql, organizationId, channelId), 'channel');
  }

  /** Makes a key for a channel of the organization; the answer is the only place its plaintext appears. */
  async create(organizationId: string, channelId: string): Promise<{ row: ChannelKeyRow; apiKey: string }> {
    await this.requireChannel(organizationId, channelId);
    return insertNewChannelKey(this.sql, organizationId, channelId);
  }

  async list(organizationId: string, channelId: string): Promise<ChannelKeyRow[]> {
    await this.requireChannel(organizationId, channelId);
    return db.listChannelKeys(this.sql, organizationId, channelId);
  }

  /** Enables or disables a key: a disabled key registers no device, and its devices' tokens stop working. */
  async setEnabled(organizationId: string, channelId: string, keyId: string, enabled: boolean): Promise<ChannelKeyRow> {
    await this.requireChannel(organizationId, channelId);
    return found(await db.setChannelKeyEnabled(this.sql, organizationId, channelId, keyId, enabled), 'API key');
  }

  async delete(organizationId: string, channelId: string, keyId: string): Promise<void> {
    await this.requireChannel(organizationId, channelId);
    if (!(await db.deleteChannelKey(this.sql, organizationId, channelId, keyId))) throw notFound('API key not found');
  }

  /**
   * Authenticates a device's channel API key: its channel and organization
   * (plus the channel's type and schema) when the key exists, is enabled and
   * belongs to an enabled channel; undefined otherwise.
   */
  async authenticate(key: string | undefined | null): Promise<ChannelKeyIdentity | undefined> {
    if (typeof key !== 'string' || key.length === 0 || key.length > MAX_KEY_LENGTH) return undefined;
    return db.findEnabledChannelKey(this.sql, digestApiKey(key));
  }
}
