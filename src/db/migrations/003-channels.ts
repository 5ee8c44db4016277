// Schema changes for channels, channel keys, schemas, projects, gateways, beyond migration 2.
import type { Migration } from '../migrations.js';

export const migration003: Migration = {
  version: 3,
  name: 'channels, channel keys, schemas, projects, gateways',
  sql: `
    -- channels.schema_id references schemas ON DELETE RESTRICT: index it so
    -- that deleting a schema (and "is this schema in use?") needs no scan.
    CREATE INDEX channels_schema ON channels (schema_id) WHERE schema_id IS NOT NULL;
  `,
};
