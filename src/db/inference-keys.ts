// Queries of inference API keys. Only digests are stored (see migrations).
import type { Queryable } from './database.js';

export interface InferenceKeyRow {
  id: string;
  organizationId: string;
  name: string;
  keyHash: string;
  keyPrefix: string;
  enabled: boolean;
  createdBy: string | null;
  createdAt: Date;
  updatedAt: Date;
}

export async function listEnabledKeyDigests(
  sql: Queryable,
): Promise<Array<Pick<InferenceKeyRow, 'id' | 'keyHash' | 'organizationId'>>> {
  return sql`SELECT id, key_hash, organization_id FROM inference_api_keys WHERE enabled`;
}

export async function insertInferenceKey(
  sql: Queryable,
  key: Pick<InferenceKeyRow, 'id' | 'organizationId' | 'name' | 'keyHash' | 'keyPrefix' | 'createdBy'>,
): Promise<InferenceKeyRow> {
  const [row] = await sql<InferenceKeyRow[]>`INSERT INTO inference_api_keys ${sql(key)} RETURNING *`;
  return row!;
}

export async function findKeyByDigest(sql: Queryable, keyHash: string): Promise<InferenceKeyRow | undefined> {
  const [row] = await sql<InferenceKeyRow[]>`SELECT * FROM inference_api_keys WHERE key_hash = ${keyHash}`;
  return row;
}

export async function listInferenceKeys(sql: Queryable, organizationId: string): Promise<InferenceKeyRow[]> {
  return sql<
    InferenceKeyRow[]
  >`SELECT * FROM inference_api_keys WHERE organization_id = ${organizationId} ORDER BY created_at, id`;
}

export async function setInferenceKeyEnabled(
  sql: Queryable,
  organizationId: string,
  id: string,
  enabled: boolean,
): Promise<InferenceKeyRow | undefined> {
  const [row] = await sql<InferenceKeyRow[]>`
    UPDATE inference_api_keys SET enabled = ${enabled}, updated_at = now()
    WHERE organization_id = ${organizationId} AND id = ${id} RETURNING *`;
  return row;
}

export async function deleteInferenceKey(sql: Queryable, organizationId: string, id: string): Promise<boolean> {
  return (await sql`DELETE FROM inference_api_keys WHERE organization_id = ${organizationId} AND id = ${id}`).count > 0;
}
