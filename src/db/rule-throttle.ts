// When each rule last fired for each device (rule_throttle): read with the
// devices' rows in the locked ingestion commit, written in every commit
// where a rule fired.
import type { PendingQuery, Row, Sql } from 'postgres';
import { arrayLiteral } from './array-literal.js';

export interface RuleThrottleRow {
  ruleId: string;
  deviceId: string;
  lastFiredAt: Date;
}

/** The throttles of the devices; not awaited here, so that it is pipelined with the commit's other reads. */
export function listRuleThrottles(tx: Sql, deviceIds: string[]): PendingQuery<RuleThrottleRow[]> {
  return tx<RuleThrottleRow[]>`
        SELECT rule_id, device_id, last_fired_at FROM rule_throttle WHERE device_id = ANY(${deviceIds})`;
}

/**
 * The upsert of when rules last fired per device; not run here: a statement
 * of its own, or a part (CTE) of the one-statement commit.
 */
export function upsertRuleThrottles(
  tx: Sql,
  rows: ReadonlyArray<{ ruleId: string; deviceId: string; at: Date }>,
): PendingQuery<Row[]> {
  return tx`
    INSERT INTO rule_throttle (rule_id, device_id, last_fired_at)
    SELECT * FROM unnest(
      ${arrayLiteral(rows.map((r) => r.ruleId))}::text::text[], ${arrayLiteral(rows.map((r) => r.deviceId))}::text::text[],
      ${arrayLiteral(rows.map((r) => r.at.toISOString()))}::text::timestamptz[]
    )
    ON CONFLICT (rule_id, device_id) DO UPDATE SET last_fired_at = EXCLUDED.last_fired_at`;
}
