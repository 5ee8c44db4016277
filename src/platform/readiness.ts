// Readiness (/v2/health/ready): a server is ready when its database answers
// within a bound, the model versions it found at start have finished loading
// and one of them is Active, and, in MQTT broker mode, it is connected to
// its broker (a replica that cannot take its share of the devices' messages
// is not ready).
import type { Queryable } from '../db/database.js';
import { databaseAnswers } from '../db/health.js';

export type ModelReadiness = 'ok' | 'loading' | 'none-active';

export interface Readiness {
  database: boolean;
  models: ModelReadiness;
  /** broker mode's connection: undefined when MQTT_BROKER_URL is unset */
  broker: boolean | undefined;
}

/** What readiness asks of broker mode's connection (mqtt/broker-subscriber.ts). */
export interface BrokerConnection {
  readonly state: 'connecting' | 'connected' | 'stopped';
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

/** What /v2/health/ready asks: built once in app.ts, so the route holds a check, not a connection. */
export class ReadinessCheck {
  constructor(
    private readonly sql: Queryable,
    private readonly inference: { modelReadiness(): ModelReadiness },
    private readonly broker: BrokerConnection | undefined = undefined,
  ) {}

  async check(): Promise<Readiness> {
    return {
      database: await databaseAnswersWithin(this.sql, DATABASE_TIMEOUT_MS),
      models: this.inference.modelReadiness(),
      broker: this.broker === undefined ? undefined : this.broker.state === 'connected',
    };
  }
}
