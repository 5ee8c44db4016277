// The one place the server connects to PostgreSQL: an external server when
// DATABASE_URL is set, otherwise the embedded one in DATA_DIR.
import postgres, { type Sql, type TransactionSql } from 'postgres';
import type { Config } from '../config.js';
import type { Logger } from '../log.js';
import { startEmbeddedDatabase, type EmbeddedRole } from './embedded.js';
import { migrate } from './migrate.js';

export interface Database {
  sql: Sql;
  /** Closes the pool, then stops the embedded server if there is one. */
  close(): Promise<void>;
}

export function connect(url: string, max = 10, socketPath?: string): Sql {
  return postgres(url, {
    max,
    ...(socketPath ? { path: socketPath } : {}),
    onnotice: () => {},
    // int8 columns (counters, sequence ids) come back as JS numbers; they stay far below 2^53.
    types: {
      bigint: {
        to: 20,
        from: [20],
        serialize: (value: number) => String(value),
        parse: (value: string) => Number(value),
      },
    },
    // Column names are snake_case in SQL and camelCase in TypeScript. Only
    // column names: postgres.camel would also rename keys inside json/jsonb
    // values, which are user data (event payloads, rule actions).
    transform: { column: { from: postgres.toCamel, to: postgres.fromCamel }, undefined: null },
  });
}

/**
 * `role`: a server owns the embedded PostgreSQL it starts and refuses a data
 * directory another live server owns; a tool shares the running server's.
 */
export async function openDatabase(
  config: Pick<Config, 'databaseUrl' | 'dataDir'>,
  role: EmbeddedRole,
  log: Logger,
): Promise<Database> {
  const embedded = config.databaseUrl ? undefined : await startEmbeddedDatabase(config.dataDir, role, log);
  const url = config.databaseUrl ?? embedded!.url;
  // The ingestion writer keeps up to 4 of these for its transactions (event-writer.ts).
  const sql = connect(url, 14, embedded?.socketPath);
  try {
    await sql`SELECT 1`;
    await migrate(sql, log);
  } catch (error) {
    await sql.end({ timeout: 1 }).catch(() => {});
    await embedded?.stop();
    throw error;
  }
  if (config.databaseUrl) log.info('connected to PostgreSQL', { host: new URL(url).host });
  return {
    sql,
    close: async () => {
      await sql.end({ timeout: 5 });
      await embedded?.stop();
    },
  };
}

/** A pool or a transaction: query helpers take either. */
export type Queryable = Sql | TransactionSql;
