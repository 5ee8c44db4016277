// Several replicas on one database. Model files are stored in PostgreSQL,
// so that every replica can load a version whichever server received it:
// each file in chunks of bytea rows (at most 1 MiB each, written and read one
// at a time, never whole in memory), with its size and SHA-256 to check a
// copy against. Chunked bytea rather than large objects: rows go with their
// version by ON DELETE CASCADE (large objects need lo_unlink, and leak when
// it is missed), dump and replicate like any table, and need no transaction
// held open around a descriptor. And the replicas themselves, each with a
// heartbeat, and the status of each version on each: a version answers how
// many live replicas serve it.
import type { Migration } from '../migrations.js';

export const migration015: Migration = {
  version: 15,
  name: 'model files stored in the database, replicas and their version statuses',
  sql: `
    CREATE TABLE model_files (
      version_id  text NOT NULL REFERENCES model_versions(id) ON DELETE CASCADE,
      name        text NOT NULL,
      bytes       bigint NOT NULL,
      sha256      text NOT NULL,
      PRIMARY KEY (version_id, name)
    );

    -- Written before their file's row (whose hash is known only once the
    -- last chunk is read), in the same transaction: the key is checked at
    -- commit.
    CREATE TABLE model_file_chunks (
      version_id  text NOT NULL,
      name        text NOT NULL,
      seq         integer NOT NULL,
      data        bytea NOT NULL,
      PRIMARY KEY (version_id, name, seq),
      FOREIGN KEY (version_id, name) REFERENCES model_files (version_id, name) ON DELETE CASCADE DEFERRABLE INITIALLY DEFERRED
    );
    -- ONNX weights barely compress: store the chunks out of line without
    -- spending CPU on trying.
    ALTER TABLE model_file_chunks ALTER COLUMN data SET STORAGE EXTERNAL;

    -- A running server. Rows whose heartbeat stopped are removed by the
    -- other replicas, with their version statuses.
    CREATE TABLE replicas (
      id            text PRIMARY KEY,
      host          text NOT NULL,
      started_at    timestamptz NOT NULL DEFAULT now(),
      heartbeat_at  timestamptz NOT NULL DEFAULT now()
    );

    CREATE TABLE model_version_replicas (
      version_id  text NOT NULL REFERENCES model_versions(id) ON DELETE CASCADE,
      replica_id  text NOT NULL REFERENCES replicas(id) ON DELETE CASCADE,
      status      text NOT NULL CHECK (status IN ('Initializing', 'Active', 'Failed')),
      reason      text,
      updated_at  timestamptz NOT NULL DEFAULT now(),
      PRIMARY KEY (version_id, replica_id)
    );
    CREATE INDEX model_version_replicas_replica ON model_version_replicas (replica_id);
  `,
};
