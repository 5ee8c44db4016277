// Readiness (/v2/health/ready): a server is ready when its database answers
// within a bound and it has an Active model version to predict with.
import type { Queryable } from '../db/database.js';
import { databaseAnswers } from '../db/health.js';

export interface Readiness {
  database: boolean;
  activeModelVersion: boolean;
}

/** A database that takes longer than this to answer `SELECT 1` is as good as down to a load balancer. */
const DATABASE_TIMEOUT_MS = 2000;

async function databaseAnswersWithin(sql: Queryable, timeoutMs: number): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<boolean>((resolve) => {
    timer = setTimeout(() => resolve(false), timeoutMs);
  });
  try {
    return await Promise.race([databaseAnswers(sql), timeout]);
  } finally {
    clearTimeout(timer);
  }
}

export async function readiness(sql: Queryable, inference: { hasActiveVersion(): boolean }): Promise<Readiness> {
  return { database: await databaseAnswersWithin(sql, DATABASE_TIMEOUT_MS), activeModelVersion: inference.hasActiveVersion() };
}
