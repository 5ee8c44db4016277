// The inference service's VersionRegistry (inference/versions/version-registry.ts)
// over the database: versions are rows of model_versions, changes arrive on
// its NOTIFY channel (a trigger sends `<TG_OP>:<id>`, whichever server or
// tool made them), and each replica's status of a version is a row of
// model_version_replicas. The statements are db/'s.
import type { Sql } from 'postgres';
import { findModelVersion, listAllModelVersions } from '../db/model-versions.js';
import { recordVersionStatus } from '../db/replicas.js';
import type {
  RegisteredVersion,
  VersionChange,
  VersionRegistry,
  VersionStatus,
} from '../inference/versions/version-registry.js';

/** The channel the model_versions trigger notifies (db/migrations.ts). */
const CHANNEL = 'model_versions';

export class DatabaseVersionRegistry implements VersionRegistry {
  constructor(private readonly sql: Sql) {}

  list(): Promise<RegisteredVersion[]> {
    return listAllModelVersions(this.sql);
  }

  find(id: string): Promise<RegisteredVersion | undefined> {
    return findModelVersion(this.sql, id);
  }

  recordStatus(replicaId: string, versionId: string, status: VersionStatus, reason: string | null): Promise<void> {
    return recordVersionStatus(this.sql, replicaId, versionId, status, reason);
  }

  async subscribe(onChange: (change: VersionChange) => void): Promise<() => Promise<void>> {
    const { unlisten } = await this.sql.listen(CHANNEL, (payload) => {
      const change = parseChange(payload);
      if (change) onChange(change);
    });
    return unlisten;
  }
}

/** `INSERT:<id>`, `DELETE:<id>`, `DISABLE:<id>`, `ENABLE:<id>` or `CONFIG:<id>`; undefined for anything else. */
function parseChange(payload: string): VersionChange | undefined {
  const [op, id] = payload.split(':');
  return id ? { id, deleted: op === 'DELETE', disabled: op === 'DISABLE', config: op === 'CONFIG' } : undefined;
}
