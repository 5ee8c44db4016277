// Schema changes for rules and events, beyond migration 2.
import type { Migration } from '../migrations.js';

export const migration005: Migration = {
  version: 5,
  name: 'rules and events',
  sql: `
    -- The parsed condition tree (platform/rules/model.ts), stored with the
    -- Gen B conditions_object and the conditions string derived from it, so
    -- that the rules engine never parses a rule per event. NULL: no conditions.
    ALTER TABLE rules ADD COLUMN condition_tree jsonb;

    -- The rules engine loads the enabled rules of an organization.
    CREATE INDEX rules_org_enabled ON rules (organization_id) WHERE enabled;
  `,
};
