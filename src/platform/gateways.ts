// Gateways (docs/CONTRACT.md#v2-resources): on-premises edge servers of an organization.
// Every operation is scoped to the caller's organization; one that names a
// gateway of another organization finds nothing.
import { newId } from '../ids.js';
import type { Queryable } from '../db/database.js';
import * as db from '../db/gateways.js';
import type { GatewayRow } from '../db/gateways.js';
import { found, notFound } from '../errors.js';

/** The public view of a gateway, as the API returns it. */
export function presentGateway(row: GatewayRow) {
  return { id: row.id, organizationId: row.organizationId, name: row.name, createdAt: row.createdAt, updatedAt: row.updatedAt, syncedAt: row.syncedAt };
}

export const listGateways = (sql: Queryable, organizationId: string) => db.listGateways(sql, organizationId);

export const createGateway = (sql: Queryable, organizationId: string, name: string) => db.insertGateway(sql, { id: newId(), organizationId, name });

export async function getGateway(sql: Queryable, organizationId: string, id: string): Promise<GatewayRow> {
  return found(await db.findGateway(sql, organizationId, id), 'gateway');
}

/** Renames the gateway when a name is given; either way answers its current state. */
export async function renameGateway(sql: Queryable, organizationId: string, id: string, name: string | undefined): Promise<GatewayRow> {
  if (name === undefined) return getGateway(sql, organizationId, id);
  return found(await db.renameGateway(sql, organizationId, id, name), 'gateway');
}

export async function deleteGateway(sql: Queryable, organizationId: string, id: string): Promise<void> {
  if (!(await db.deleteGateway(sql, organizationId, id))) throw notFound('gateway not found');
}
