// Rows of other areas written straight into the database, for tests of one
// area that need another's resources (a rules test needs projects, channels
// and landmarks) without depending on those areas' endpoints.
import type postgres from 'postgres';
import { ulid } from 'ulid';

export function rowMaker(sql: postgres.Sql) {
  return {
    async channel(
      organizationId: string,
      options: { name?: string; type?: 'android' | 'ios' | 'iot' | 'gateway' } = {},
    ): Promise<string> {
      const id = ulid();
      await sql`INSERT INTO channels (id, organization_id, name, type) VALUES (${id}, ${organizationId}, ${options.name ?? 'iot channel'}, ${options.type ?? 'iot'})`;
      return id;
    },

    async project(organizationId: string, options: { name?: string; channelIds?: string[] } = {}): Promise<string> {
      const id = ulid();
      await sql`INSERT INTO projects (id, organization_id, name) VALUES (${id}, ${organizationId}, ${options.name ?? `project ${id}`})`;
      for (const channelId of options.channelIds ?? [])
        await sql`INSERT INTO project_channels (project_id, channel_id) VALUES (${id}, ${channelId})`;
      return id;
    },

    async device(organizationId: string, channelId: string): Promise<string> {
      const id = ulid();
      await sql`INSERT INTO devices (id, organization_id, channel_id) VALUES (${id}, ${organizationId}, ${channelId})`;
      return id;
    },

    /** A circle of 100 m around (40, -74). */
    async landmark(organizationId: string, projectId: string): Promise<string> {
      const id = ulid();
      await sql`
        INSERT INTO landmarks (id, organization_id, project_id, name, kind, geometry, min_lat, min_lon, max_lat, max_lon)
        VALUES (${id}, ${organizationId}, ${projectId}, 'office', 'circle', ${sql.json({ center: { lat: 40, lon: -74 }, radius: 100 })}, 39.99, -74.01, 40.01, -73.99)`;
      return id;
    },

    async gateway(organizationId: string): Promise<string> {
      const id = ulid();
      await sql`INSERT INTO gateways (id, organization_id, name) VALUES (${id}, ${organizationId}, 'gw')`;
      return id;
    },
  };
}

export type RowMaker = ReturnType<typeof rowMaker>;
