// Queries of gateways (on-premises edge servers). Every query is scoped to one organization.
import type { Queryable } from './database.js';

export interface GatewayRow {
  id: string;
  organizationId: string;
  name: string;
  createdAt: Date;
  updatedAt: Date;
  /** when the gateway last synced its rules and landmarks; null until it first does */
  syncedAt: Date | null;
}

export async function listGateways(sql: Queryable, organizationId: string): Promise<GatewayRow[]> {
  return sql<GatewayRow[]>`SELECT * FROM gateways WHERE organization_id = ${organizationId} ORDER BY created_at, id`;
}

export async function findGateway(sql: Queryable, organizationId: string, id: string): Promise<GatewayRow | undefined> {
  const [row] = await sql<
    GatewayRow[]
  >`SELECT * FROM gateways WHERE organization_id = ${organizationId} AND id = ${id}`;
  return row;
}

export async function insertGateway(
  sql: Queryable,
  gateway: Pick<GatewayRow, 'id' | 'organizationId' | 'name'>,
): Promise<GatewayRow> {
  const [row] = await sql<GatewayRow[]>`INSERT INTO gateways ${sql(gateway)} RETURNING *`;
  return row!;
}

export async function renameGateway(
  sql: Queryable,
  organizationId: string,
  id: string,
  name: string,
): Promise<GatewayRow | undefined> {
  const [row] = await sql<GatewayRow[]>`
    UPDATE gateways SET name = ${name}, updated_at = now() WHERE organization_id = ${organizationId} AND id = ${id} RETURNING *`;
  return row;
}

export async function deleteGateway(sql: Queryable, organizationId: string, id: string): Promise<boolean> {
  return (await sql`DELETE FROM gateways WHERE organization_id = ${organizationId} AND id = ${id}`).count > 0;
}
