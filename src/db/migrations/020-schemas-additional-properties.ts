// A payload schema may refuse keys its root fields do not declare
// (additionalProperties false); nested objects say it on their field, in
// the fields' JSON. True, the old behaviour, for every existing schema.
import type { Migration } from '../migrations.js';

export const migration020: Migration = {
  version: 20,
  name: "schemas' additionalProperties",
  sql: `
    ALTER TABLE schemas ADD COLUMN additional_properties boolean NOT NULL DEFAULT true;
  `,
};
