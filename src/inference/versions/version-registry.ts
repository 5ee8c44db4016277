// The port through which the inference service learns which model versions
// exist and reports how each one fares on this server: plain data in and
// out, no connection or SQL. The platform implements it over the database
// (platform/model-version-registry.ts: the model_versions table, its
// NOTIFY channel, the replicas' status rows); a test or a benchmark can
// hand the service one kept in memory.

export type VersionStatus = 'Initializing' | 'Active' | 'Failed';

/** A model version as registered: what the service deploys it from. */
export interface RegisteredVersion {
  id: string;
  modelId: string;
  organizationId: string;
  /** where its files were registered from (a bundled model's MODELS_DIR entry, or the receiving server's cache entry) */
  directory: string;
  /** model.json as stored: parsed again (and defaults filled) when deployed */
  config: unknown;
  public: boolean;
  /** its last reported status: Active means it loaded before, somewhere */
  status: VersionStatus;
}

/** A version inserted (or otherwise changed) or deleted, by whichever server or tool. */
export interface VersionChange {
  id: string;
  deleted: boolean;
  /** disabled: kept in the registry, but to be served no more (enabled again: a change with neither flag) */
  disabled?: boolean;
  /** its config changed (its child stages): read again, the model not reloaded */
  config?: boolean;
}

export interface VersionRegistry {
  /** Every registered version, oldest first. */
  list(): Promise<RegisteredVersion[]>;
  find(id: string): Promise<RegisteredVersion | undefined>;
  /** Records a version's status on the replica `replicaId` (and as the version's own). */
  recordStatus(replicaId: string, versionId: string, status: VersionStatus, reason: string | null): Promise<void>;
  /**
   * Calls `onChange` for each later change, made here or elsewhere; resolves
   * once following, with the function that stops it.
   */
  subscribe(onChange: (change: VersionChange) => void): Promise<() => Promise<void>>;
}
