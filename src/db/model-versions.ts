// Queries of models and model versions.
import type { TransactionSql } from 'postgres';
import type { Queryable } from './database.js';

export type VersionStatus = 'Initializing' | 'Active' | 'Failed';

export interface ModelRow {
  id: string;
  organizationId: string;
  name: string;
  description: string;
  createdAt: Date;
  updatedAt: Date;
}

export interface ModelVersionRow {
  id: string;
  modelId: string;
  organizationId: string;
  version: number;
  directory: string;
  /** model.json as the inference layer parsed it; its type is inference's, which db/ does not import */
  config: unknown;
  public: boolean;
  /** disabled (npm run model -- disable): kept, served by no server until enabled */
  disabled: boolean;
  status: VersionStatus;
  statusReason: string | null;
  createdAt: Date;
  updatedAt: Date;
}

/** Every version a server serves: all but the disabled ones. */
export async function listAllModelVersions(sql: Queryable): Promise<ModelVersionRow[]> {
  return sql<ModelVersionRow[]>`SELECT * FROM model_versions WHERE NOT disabled ORDER BY created_at, id`;
}

export async function insertModel(
  sql: Queryable,
  model: Pick<ModelRow, 'id' | 'organizationId' | 'name' | 'description'>,
): Promise<ModelRow> {
  const [row] = await sql<ModelRow[]>`INSERT INTO models ${sql(model)} RETURNING *`;
  return row!;
}

/**
 * Locks a model's row until the transaction ends, before a version is
 * inserted: two transactions inserting versions of one model then take their
 * numbers one after the other (the second reads the first's once it
 * committed), where both read the same max and one failed on the unique
 * (model_id, version). A statement of its own, so that the insert's max is
 * read after the wait. False when the model is gone (deleted meanwhile, its
 * deletion committed while this waited).
 */
export async function lockModelForNewVersion(
  tx: TransactionSql,
  organizationId: string,
  modelId: string,
): Promise<boolean> {
  const rows =
    await tx`SELECT 1 FROM models WHERE organization_id = ${organizationId} AND id = ${modelId} FOR NO KEY UPDATE`;
  return rows.length > 0;
}

/** Inserts the next version number of its model (after lockModelForNewVersion where others may insert at once). */
export async function insertModelVersion(
  sql: Queryable,
  version: Pick<ModelVersionRow, 'id' | 'modelId' | 'organizationId' | 'directory' | 'config' | 'public'>,
): Promise<ModelVersionRow> {
  const [row] = await sql<ModelVersionRow[]>`
    INSERT INTO model_versions (id, model_id, organization_id, version, directory, config, public)
    VALUES (
      ${version.id}, ${version.modelId}, ${version.organizationId},
      (SELECT coalesce(max(version), 0) + 1 FROM model_versions WHERE model_id = ${version.modelId}),
      ${version.directory}, ${sql.json(version.config as never)}, ${version.public}
    )
    RETURNING *`;
  return row!;
}

/** A version a server serves: undefined for an unknown or a disabled one. */
export async function findModelVersion(sql: Queryable, id: string): Promise<ModelVersionRow | undefined> {
  const [row] = await sql<ModelVersionRow[]>`SELECT * FROM model_versions WHERE id = ${id} AND NOT disabled`;
  return row;
}

/** Disables or enables a version (every server follows through the trigger's NOTIFY); undefined for an unknown id. */
export async function setModelVersionDisabled(
  sql: Queryable,
  id: string,
  disabled: boolean,
): Promise<{ changed: boolean; modelName: string; version: number } | undefined> {
  const [row] = await sql<Array<{ changed: boolean; modelName: string; version: number }>>`
    WITH target AS (SELECT v.id, v.disabled, v.version, m.name FROM model_versions v JOIN models m ON m.id = v.model_id WHERE v.id = ${id} FOR UPDATE OF v),
         changed AS (UPDATE model_versions v SET disabled = ${disabled}, updated_at = now() FROM target WHERE v.id = target.id AND target.disabled <> ${disabled} RETURNING v.id)
    SELECT EXISTS (SELECT 1 FROM changed) AS changed, target.name AS model_name, target.version FROM target`;
  return row;
}

/** Deletes a version whatever its organization (the operator's CLI); its name, or undefined for an unknown id. */
export async function deleteModelVersionById(
  sql: Queryable,
  id: string,
): Promise<{ modelName: string; version: number } | undefined> {
  const [row] = await sql<Array<{ modelName: string; version: number }>>`
    DELETE FROM model_versions v USING models m WHERE v.id = ${id} AND m.id = v.model_id RETURNING m.name AS model_name, v.version`;
  return row;
}

export async function findModelByName(
  sql: Queryable,
  organizationId: string,
  name: string,
): Promise<ModelRow | undefined> {
  const [row] = await sql<ModelRow[]>`
    SELECT * FROM models WHERE organization_id = ${organizationId} AND name = ${name} ORDER BY created_at LIMIT 1`;
  return row;
}

/** Every version, disabled ones included, with its model's and its organization's names. */
export async function listModelVersionsWithModel(
  sql: Queryable,
): Promise<Array<ModelVersionRow & { modelName: string; organizationName: string }>> {
  return sql`
    SELECT v.*, m.name AS model_name, o.name AS organization_name
    FROM model_versions v JOIN models m ON m.id = v.model_id JOIN organizations o ON o.id = v.organization_id
    ORDER BY v.created_at, v.id`;
}

/** A version's number and its model's name: how the Open Inference Protocol addresses it. */
export interface VersionNameRow {
  id: string;
  modelId: string;
  version: number;
  modelName: string;
}

/** Every version's number and model name, whatever its organization (the server's in-memory index of names). */
export async function listVersionNames(sql: Queryable): Promise<VersionNameRow[]> {
  return sql<VersionNameRow[]>`
    SELECT v.id, v.model_id, v.version, m.name AS model_name FROM model_versions v JOIN models m ON m.id = v.model_id`;
}

export interface ModelWithCount extends ModelRow {
  versionCount: number;
}

export async function listModels(sql: Queryable, organizationId: string): Promise<ModelWithCount[]> {
  return sql<ModelWithCount[]>`
    SELECT m.*, (SELECT count(*)::int FROM model_versions v WHERE v.model_id = m.id) AS version_count
    FROM models m WHERE m.organization_id = ${organizationId} ORDER BY m.created_at, m.id`;
}

export async function findModel(sql: Queryable, organizationId: string, id: string): Promise<ModelRow | undefined> {
  const [row] = await sql<ModelRow[]>`SELECT * FROM models WHERE organization_id = ${organizationId} AND id = ${id}`;
  return row;
}

export async function updateModel(
  sql: Queryable,
  organizationId: string,
  id: string,
  changes: Partial<Pick<ModelRow, 'name' | 'description'>>,
): Promise<ModelRow | undefined> {
  const [row] = await sql<ModelRow[]>`
    UPDATE models SET ${sql(changes as Record<string, unknown>)}, updated_at = now()
    WHERE organization_id = ${organizationId} AND id = ${id} RETURNING *`;
  return row;
}

export async function deleteModel(sql: Queryable, organizationId: string, id: string): Promise<boolean> {
  return (await sql`DELETE FROM models WHERE organization_id = ${organizationId} AND id = ${id}`).count > 0;
}

export async function listVersionsOfModel(
  sql: Queryable,
  organizationId: string,
  modelId: string,
): Promise<ModelVersionRow[]> {
  return sql<ModelVersionRow[]>`
    SELECT * FROM model_versions WHERE organization_id = ${organizationId} AND model_id = ${modelId} ORDER BY version`;
}

/** A version the organization may see: its own, or a public one. */
export async function findVisibleVersion(
  sql: Queryable,
  organizationId: string,
  id: string,
): Promise<ModelVersionRow | undefined> {
  const [row] = await sql<ModelVersionRow[]>`
    SELECT * FROM model_versions WHERE id = ${id} AND (organization_id = ${organizationId} OR public)`;
  return row;
}

export async function deleteModelVersion(sql: Queryable, organizationId: string, id: string): Promise<boolean> {
  return (await sql`DELETE FROM model_versions WHERE organization_id = ${organizationId} AND id = ${id}`).count > 0;
}

/** Every version the organization can run as a child stage: its own and the public ones (disabled included: still its). */
export async function listVisibleVersions(sql: Queryable, organizationId: string): Promise<ModelVersionRow[]> {
  return sql<ModelVersionRow[]>`
    SELECT * FROM model_versions WHERE organization_id = ${organizationId} OR public ORDER BY created_at, id`;
}

/**
 * Sets the child stages in one of the organization's versions' config
 * (every server follows through the trigger's CONFIG NOTIFY); the row, or
 * undefined for a version not the organization's.
 */
export async function updateVersionStages(
  sql: Queryable,
  organizationId: string,
  id: string,
  stages: unknown[],
): Promise<ModelVersionRow | undefined> {
  const [row] = await sql<ModelVersionRow[]>`
    UPDATE model_versions SET config = jsonb_set(config, '{stages}', ${sql.json(stages as never)}), updated_at = now()
    WHERE organization_id = ${organizationId} AND id = ${id} RETURNING *`;
  return row;
}
