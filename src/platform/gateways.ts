// Gateways (docs/CONTRACT.md#v2-resources): on-premises edge servers of an organization.
// Every operation is scoped to the caller's organization; one that names a
// gateway of another organization finds nothing.
import type { Sql } from 'postgres';
import { newId } from '../ids.js';
import * as db from '../db/gateways.js';
import type { GatewayRow } from '../db/gateways.js';
import { found, notFound } from '../errors.js';

/** The public view of a gateway, as the API returns it. */
export function presentGateway(row: GatewayRow) {
  return {
    id: row.id,
    organizationId: row.organizationId,
    name: row.name,
    createdAt: row.createdAt,
    updatedAt: row.updatedAt,
    syncedAt: row.syncedAt,
  };
}

/** Gateways of an organization. */
export class GatewayService {
  constructor(private readonly sql: Sql) {}

  list(organizationId: string): Promise<GatewayRow[]> {
    return db.listGateways(this.sql, organizationId);
  }

  create(organizationId: string, name: string): Promise<GatewayRow> {
    return db.insertGateway(this.sql, { id: newId(), organizationId, name });
  }

  async get(organizationId: string, id: string): Promise<GatewayRow> {
    return found(await db.findGateway(this.sql, organizationId, id), 'gateway');
  }

  /** Renames the gateway when a name is given; either way answers its current state. */
  async rename(organizationId: string, id: string, name: string | undefined): Promise<GatewayRow> {
    if (name === undefined) return this.get(organizationId, id);
    return found(await db.renameGateway(this.sql, organizationId, id, name), 'gateway');
  }

  async delete(organizationId: string, id: string): Promise<void> {
    if (!(await db.deleteGateway(this.sql, organizationId, id))) throw notFound('gateway not found');
  }
}
