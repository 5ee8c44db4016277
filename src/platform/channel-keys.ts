// Channel API keys: the credential a device presents to the ingestion API
// (POST /v1/registration {apiKey}). Generated like inference keys (256 random
// bits), stored only as SHA-256 digests; the plaintext is returned once, by
// the request that creates it.
import { newId } from '../ids.js';
import { findEnabledChannelKey, insertChannelKey, type ChannelKeyIdentity, type ChannelKeyRow } from '../db/channels.js';
import type { Queryable } from '../db/database.js';
import { digestApiKey, displayPrefix, generateApiKey } from './inference-keys.js';

export type { ChannelKeyIdentity } from '../db/channels.js';

/** Longer strings cannot be keys; they are refused without hashing. */
const MAX_KEY_LENGTH = 256;

/** A key as lists show it: never the key itself. */
export function presentChannelKey(row: ChannelKeyRow) {
  return { id: row.id, prefix: row.keyPrefix, enabled: row.enabled, createdAt: row.createdAt, updatedAt: row.updatedAt };
}

/** A just-created key: the only response that carries the plaintext `apiKey`. */
export function presentNewChannelKey(row: ChannelKeyRow, apiKey: string) {
  return { id: row.id, apiKey, prefix: row.keyPrefix, enabled: row.enabled, createdAt: row.createdAt, updatedAt: row.updatedAt };
}

/** Makes a key for a channel (the caller checked the channel is of the organization). */
export async function createChannelKey(
  sql: Queryable,
  organizationId: string,
  channelId: string,
): Promise<{ row: ChannelKeyRow; apiKey: string }> {
  const apiKey = generateApiKey();
  const row = await insertChannelKey(sql, {
    id: newId(),
    organizationId,
    channelId,
    keyHash: digestApiKey(apiKey),
    keyPrefix: displayPrefix(apiKey),
  });
  return { row, apiKey };
}

/**
 * Authenticates a device's channel API key: its channel and organization
 * (plus the channel's type and schema) when the key exists, is enabled and
 * belongs to an enabled channel; undefined otherwise.
 */
export async function authenticateChannelKey(sql: Queryable, key: string | undefined | null): Promise<ChannelKeyIdentity | undefined> {
  if (typeof key !== 'string' || key.length === 0 || key.length > MAX_KEY_LENGTH) return undefined;
  return findEnabledChannelKey(sql, digestApiKey(key));
}
