// Runs fired actions from the durable queue (action_jobs), after the events
// that fired them were acknowledged. Jobs are claimed with SKIP LOCKED (so
// several servers share the work) and retried with exponential backoff; a
// job is only marked done after its effect, so a crash repeats an action
// rather than losing it (webhook receivers get an idempotency key).
//
//   webhook  a real HTTP request: method, url, headers, templated body, basic
//            auth, timeout, retries, HMAC-SHA256 signature; every attempt is
//            written to the delivery log (action_deliveries): its status
//            code and a short reason, never the response body nor secret
//            header values. Internal destinations are refused (ssrf-guard.ts)
//            as a permanent failure, without retries: the same URL resolves
//            the same way next time, and retrying would only hammer DNS.
//   push     a notification the device reads from GET /v1/mobile/notifications
//   email    the email outbox (sent with SMTP_URL, see platform/outbox.ts)
//   sms      the SMS outbox, through a sender interface
//   tags     add or remove tags on devices or landmarks
//   mqtt     a command for the triggering device (device_commands), sent on
//            its commands topic by the replica holding its MQTT connection
//            (platform/device-commands.ts, mqtt/); written with the job's
//            completion, so a crash never makes two
import { createHmac } from 'node:crypto';
import { request as httpRequest, type IncomingMessage } from 'node:http';
import { request as httpsRequest } from 'node:https';
import type { Sql, TransactionSql } from 'postgres';
import {
  claimDueActionJobs,
  completePendingActionJob,
  markActionJobFailed,
  markActionJobSucceeded,
  retryActionJobLater,
  type ActionJobRow,
} from '../../db/action-jobs.js';
import { insertActionDelivery } from '../../db/deliveries.js';
import { insertDeviceCommand, notifyDeviceCommands } from '../../db/device-commands.js';
import { changeDeviceTags, findDeviceTelephone } from '../../db/devices.js';
import { changeLandmarkTags } from '../../db/landmarks.js';
import { insertDeviceNotification } from '../../db/notifications.js';
import { insertOutboxSms } from '../../db/outbox.js';
import { CodedError, errorCode, revivable, type ErrorCode } from '../../errors.js';
import { newId } from '../../ids.js';
import type { Logger } from '../../log.js';
import { commandsTopic } from '../device-commands.js';
import { enqueueEmail } from '../outbox.js';
import type { Secrets } from '../secrets.js';
import {
  DEFAULT_COMMAND_EXPIRY_SECONDS,
  isJsonMessage,
  MAX_COMMAND_BYTES,
  webhookOrigin,
  type MqttAction,
  type RuleAction,
  type WebhookAction,
} from './actions.js';
import type { ActionContext } from './batch.js';
import {
  BlockedDestinationError,
  checkDestination,
  NOTHING_ALLOWED,
  pinnedLookup,
  type AllowList,
} from './ssrf-guard.js';
import { isJsonContentType, renderJsonBody, renderTemplate, TemplateRenderError } from './templates.js';

/**
 * A claimed job with its action typed by the rule model: the action was
 * validated (actionSchema) when its rule was saved and queued as it was
 * loaded (batch.ts), its context as batch.ts builds it.
 */
export type ClaimedJob = Omit<ActionJobRow, 'action' | 'context'> & { action: RuleAction; context: ActionContext };

/** Where SMS go; the default keeps them in the outbox table for an operator or a gateway to send. */
export interface SmsSender {
  send(tx: TransactionSql, organizationId: string, to: string, body: string): Promise<void>;
}

export const outboxSms: SmsSender = {
  async send(tx, organizationId, to, body) {
    await insertOutboxSms(tx, { id: newId(), organizationId, toNumber: to, body });
  },
};

/** A retryable failure: the job is tried again later (network errors, timeouts, 5xx, 429). */
export class RetryableError extends CodedError {
  readonly code = 'ACTION_RETRYABLE';
  static {
    revivable('ACTION_RETRYABLE', ({ message }) => new RetryableError(message));
  }
}

/** A job that failed for good: a webhook answered 4xx or ran out of attempts, a local action's failure. */
export class ActionFailedError extends CodedError {
  readonly code = 'ACTION_FAILED';
  static {
    revivable('ACTION_FAILED', ({ message }) => new ActionFailedError(message));
  }
}

/** A webhook request that did not finish within its timeoutMs. */
export class WebhookTimeoutError extends CodedError {
  readonly code = 'WEBHOOK_TIMED_OUT';
  static {
    revivable('WEBHOOK_TIMED_OUT', ({ message }) => new WebhookTimeoutError(message));
  }
}

/**
 * Webhook failures that are permanent, tried once: a refused destination
 * (the same URL resolves the same way next time), a body that cannot be
 * rendered as JSON, a secret the key cannot open.
 */
const PERMANENT: ReadonlySet<ErrorCode> = new Set<ErrorCode>([
  'WEBHOOK_BLOCKED',
  'TEMPLATE_RENDER_FAILED',
  'SECRET_UNOPENABLE',
]);

/** The action runner's tuning, named once here (docs/ARCHITECTURE.md, "Tuning constants", lists it). */
const ACTION_RUNNER_TUNING = {
  /** how often due jobs are looked for besides the NOTIFY wake-ups (a job due after its backoff, a missed NOTIFY) */
  pollMs: 5_000,
  /** jobs claimed and run at once, per server */
  concurrency: 8,
  /** a claimed job's lease: past it, a job whose runner died is claimed again */
  leaseSeconds: 60,
  /** attempts of a job: a webhook's own `retries` + 1 replaces it */
  maxAttempts: 5,
  /** a webhook request's timeout when its action sets no `timeoutMs` */
  webhookTimeoutMs: 10_000,
} as const;

/**
 * Where a webhook goes: its URL template rendered, then held to the origin
 * the template names (the host placeholders cannot change: actions.ts
 * refuses them at save, and an action stored before that is refused here).
 */
export function webhookTarget(template: string, context: Record<string, unknown>): URL {
  const origin = webhookOrigin(template);
  if (origin === undefined)
    throw new BlockedDestinationError(
      'blocked: the URL has a template before its path (user, host or port); templates may only be in the path and query',
    );
  const url = renderTemplate(template, context);
  const target = URL.canParse(url) ? new URL(url) : undefined;
  if (!target) throw new BlockedDestinationError(`the URL ${JSON.stringify(url.slice(0, 200))} does not parse`);
  if (target.protocol !== 'http:' && target.protocol !== 'https:')
    throw new BlockedDestinationError(`blocked: ${target.protocol} is not http or https`);
  if (target.origin !== origin)
    throw new BlockedDestinationError(`blocked: the URL rendered to ${target.origin}, not the ${origin} it names`);
  return target;
}

/** What a webhook sends, and an mqtt action publishes, when it gives no body: the context as JSON, not read as a template. */
function defaultBody(context: ActionContext): string {
  return JSON.stringify({
    rule: context.rule,
    device: context.device,
    event: context.event,
    landmarks: context.landmarks,
  });
}

function signature(secret: string, timestamp: string, body: string): string {
  return `sha256=${createHmac('sha256', secret).update(`${timestamp}.${body}`).digest('hex')}`;
}

export interface ActionRunnerOptions {
  /** how often due jobs are looked for besides the NOTIFY wake-ups; ACTION_RUNNER_TUNING's by default */
  pollMs?: number;
  /** jobs run at once; ACTION_RUNNER_TUNING's by default */
  concurrency?: number;
  /** the first retry's delay; it doubles with each attempt */
  baseBackoffMs: number;
  /** what webhook secrets and email bodies are sealed with */
  secrets: Secrets;
  /**
   * Devices an action is changing (tags), called before its transaction
   * commits: what the rules remember of them is forgotten
   * (KnownDevices.changed, known-devices.ts), so their next ingested batch
   * reads them again instead of failing its version check.
   */
  onDevicesChanged?: (deviceIds: string[]) => void;
  /** internal webhook destinations let through anyway (WEBHOOK_ALLOWED_HOSTS); none by default */
  webhookAllowList?: AllowList;
  /** a job that failed for good, by its failure's code (the errors metric) */
  onFailure?: (code: ErrorCode) => void;
}

/**
 * One HTTP request to a checked address (the pinned lookup answers with it,
 * so the connection cannot go anywhere else); the Host header and the TLS
 * server name stay the URL's host. Redirects are not followed: a 3xx is the
 * answer. The response body is read and dropped.
 */
function send(
  url: URL,
  lookup: ReturnType<typeof pinnedLookup>,
  method: string,
  headers: Record<string, string>,
  body: string | undefined,
  timeoutMs: number,
): Promise<number> {
  return new Promise((resolve, reject) => {
    const signal = AbortSignal.timeout(timeoutMs);
    // The only abort is the timeout's: once it fired, whatever the request fails with is that.
    const fail = (error: Error) =>
      reject(signal.aborted ? new WebhookTimeoutError(`timed out after ${timeoutMs} ms`) : error);
    const request = (url.protocol === 'https:' ? httpsRequest : httpRequest)(
      url,
      { method, headers, lookup, signal },
      (response: IncomingMessage) => {
        response.resume();
        response.on('end', () => resolve(response.statusCode ?? 0));
        response.on('error', fail);
      },
    );
    request.on('error', fail);
    request.end(body);
  });
}

export class ActionRunner {
  private timer: NodeJS.Timeout | undefined;
  private unlisten: (() => Promise<void>) | undefined;
  private running: Promise<void> = Promise.resolve();
  private stopped = false;
  private again = false;

  constructor(
    private readonly sql: Sql,
    private readonly sms: SmsSender = outboxSms,
    private readonly options: ActionRunnerOptions,
    private readonly log: Logger,
  ) {}

  async start(): Promise<void> {
    const { unlisten } = await this.sql.listen('action_jobs', () => this.kick());
    this.unlisten = unlisten;
    this.timer = setInterval(() => this.kick(), this.options.pollMs ?? ACTION_RUNNER_TUNING.pollMs);
    this.timer.unref();
    this.kick();
  }

  kick(): void {
    if (this.stopped) return;
    this.again = true;
    this.running = this.running.then(async () => {
      while (this.again && !this.stopped) {
        this.again = false;
        try {
          while ((await this.runDue()) > 0 && !this.stopped) this.again = false;
        } catch (error) {
          this.log.warn('action runner error', { error: error as Error });
        }
      }
    });
  }

  /** Claims and runs the jobs due now; returns how many. */
  private async runDue(): Promise<number> {
    const jobs = await claimDueActionJobs(
      this.sql,
      this.options.concurrency ?? ACTION_RUNNER_TUNING.concurrency,
      ACTION_RUNNER_TUNING.leaseSeconds,
    );
    await Promise.all(jobs.map((job) => this.run(job)));
    return jobs.length;
  }

  private async run(row: ActionJobRow): Promise<void> {
    // Not parsed again: the rules engine wrote this action and context from
    // a rule's validated, typed actions (NewActionJob), and JSONB gives back
    // what it was given; only this code writes action_jobs rows.
    const job = row as ClaimedJob;
    const action = job.action;
    const { maxAttempts: attempts } = ACTION_RUNNER_TUNING;
    const maxAttempts = action.type === 'webhook' ? (action.retries ?? attempts - 1) + 1 : attempts;
    try {
      if (action.type === 'webhook') {
        await this.webhook(job, action, maxAttempts);
        await markActionJobSucceeded(this.sql, job.id);
      } else {
        // The effect and the job's completion commit together, so a crash in
        // between cannot repeat it; the row lock and the status check keep a
        // job whose lease ran out (and that another runner claimed) from
        // running twice.
        await this.sql.begin(async (tx) => {
          if (await completePendingActionJob(tx, job.id)) await this.local(tx, job);
        });
      }
    } catch (error) {
      const message = (error as Error).message;
      if (error instanceof RetryableError && job.attempts < maxAttempts) {
        const delayMs = this.options.baseBackoffMs * 2 ** (job.attempts - 1);
        await retryActionJobLater(this.sql, job.id, message, delayMs / 1000);
        setTimeout(() => this.kick(), delayMs + 10).unref();
      } else {
        await markActionJobFailed(this.sql, job.id, message);
        const code = errorCode(error);
        this.log.warn('action failed', { job: job.id, type: job.type, rule: job.ruleId, code, error: message });
        this.options.onFailure?.(code);
      }
    }
  }

  private async webhook(job: ClaimedJob, a: WebhookAction, maxAttempts: number): Promise<void> {
    const method = String(a.method ?? 'POST').toUpperCase();
    const url = renderTemplate(String(a.url), job.context);
    const headers: Record<string, string> = { 'user-agent': 'sense-rules/1', 'idempotency-key': job.id };
    if (method !== 'GET') headers['content-type'] = 'application/json';
    // The log shows which headers were sent, not the tenant's values (tokens).
    const loggedHeaders: Record<string, string> = { ...headers };
    const started = new Date();
    const timeoutMs = a.timeoutMs ?? ACTION_RUNNER_TUNING.webhookTimeoutMs;
    let body: string | undefined;
    let status: number | undefined;
    let error: string | undefined;
    /** what failed, when it has a class (its code is what a failed job is logged as), else an ActionFailedError of `error` */
    let failure: CodedError | undefined;
    let outcome: 'success' | 'retry' | 'failure';
    try {
      for (const [name, value] of Object.entries(a.headers ?? {})) {
        headers[name.toLowerCase()] = renderTemplate(this.options.secrets.open(value), job.context);
        loggedHeaders[name.toLowerCase()] = '********';
      }
      if (method !== 'GET') {
        // The default body is the context as JSON, not a template: a
        // payload's own "{{…}}" text is not filled in.
        if (a.body === undefined) body = defaultBody(job.context);
        else if (isJsonContentType(headers['content-type'])) body = renderJsonBody(a.body, job.context);
        else body = renderTemplate(a.body, job.context);
      }
      if (a.username !== undefined || a.password !== undefined) {
        headers.authorization = `Basic ${Buffer.from(`${a.username ?? ''}:${a.password === undefined ? '' : this.options.secrets.open(a.password)}`).toString('base64')}`;
      }
      if (a.secret) {
        const timestamp = String(Math.floor(Date.now() / 1000));
        headers['x-sense-timestamp'] = loggedHeaders['x-sense-timestamp'] = timestamp;
        headers['x-sense-signature'] = signature(this.options.secrets.open(a.secret), timestamp, body ?? '');
      }
      const target = webhookTarget(String(a.url), job.context);
      const destination = await checkDestination(target, this.options.webhookAllowList ?? NOTHING_ALLOWED);
      status = await send(target, pinnedLookup(destination), method, headers, body, timeoutMs);
      outcome =
        status >= 200 && status < 300
          ? 'success'
          : status >= 500 || status === 429 || status === 408
            ? 'retry'
            : 'failure';
      if (outcome !== 'success') error = `HTTP ${status}`;
    } catch (e) {
      const err = e as Error & { cause?: Error };
      if ((e instanceof CodedError && PERMANENT.has(e.code)) || e instanceof TypeError) {
        // Permanent (PERMANENT), or a URL that does not parse, a header Node
        // refuses (TypeError).
        outcome = 'failure';
        error = err.message;
        if (e instanceof CodedError) failure = e;
      } else if (e instanceof WebhookTimeoutError) {
        outcome = 'retry';
        error = e.message;
        failure = e;
      } else {
        outcome = 'retry';
        error = err.cause?.message ?? err.message;
      }
    }
    if (outcome === 'retry' && job.attempts >= maxAttempts) outcome = 'failure';
    await insertActionDelivery(this.sql, {
      id: newId(),
      jobId: job.id,
      organizationId: job.organizationId,
      attempt: job.attempts,
      startedAt: started,
      durationMs: Date.now() - started.getTime(),
      outcome,
      statusCode: status ?? null,
      error: error?.slice(0, 500) ?? null,
      request: { method, url, headers: loggedHeaders },
    });
    if (outcome === 'retry') throw new RetryableError(error);
    if (outcome === 'failure') throw failure ?? new ActionFailedError(error);
  }

  /** Actions whose effect is a database change, made in one transaction with their bookkeeping. */
  private async local(tx: TransactionSql, job: ClaimedJob): Promise<void> {
    const a = job.action;
    const context = job.context;
    const deviceTargets = (ids: readonly string[] | undefined, reflect?: boolean) => {
      const set = new Set((ids ?? []).filter((id) => id !== 'triggering device'));
      if ((ids ?? []).includes('triggering device') || reflect) if (job.deviceId) set.add(job.deviceId);
      return [...set];
    };
    switch (a.type) {
      case 'push': {
        const targets = a.recipients
          ? deviceTargets(a.recipients.deviceIds, a.recipients.reflect)
          : job.deviceId
            ? [job.deviceId]
            : [];
        const payload = {
          ...Object.fromEntries(Object.entries(a).filter(([k]) => !['id', 'type', 'recipients'].includes(k))),
          // The SDKs' notification type for a plain message.
          type: 'push-information',
          subject: renderTemplate(a.subject ?? '', context),
          message: renderTemplate(a.message ?? '', context),
          landmarkId: a.landmarkId ?? context.landmarks?.entered?.[0],
        };
        for (const deviceId of targets) {
          await insertDeviceNotification(tx, {
            id: newId(),
            organizationId: job.organizationId,
            deviceId,
            ruleId: job.ruleId,
            actionId: job.actionId,
            payload,
          });
        }
        return;
      }
      case 'email':
        for (const to of a.recipients?.emails ?? []) {
          await enqueueEmail(tx, this.options.secrets, {
            kind: 'rule-action',
            to,
            organizationId: job.organizationId,
            subject: renderTemplate(a.subject, context),
            body: renderTemplate(a.message ?? a.body ?? '', context),
          });
        }
        return;
      case 'sms': {
        const numbers = [...(a.recipients?.telephoneNumbers ?? [])];
        if (a.recipients?.reflect && job.deviceId) {
          const telephone = await findDeviceTelephone(tx, job.deviceId);
          if (telephone !== undefined) numbers.push(telephone);
        }
        for (const to of numbers) await this.sms.send(tx, job.organizationId, to, renderTemplate(a.message, context));
        return;
      }
      case 'update device state add tags':
      case 'update device state remove tags': {
        const ids = deviceTargets(a.deviceIds);
        const add = a.type === 'update device state add tags';
        const changed = await changeDeviceTags(tx, job.organizationId, ids, a.tags, add);
        if (changed.length) this.options.onDevicesChanged?.(changed);
        return;
      }
      case 'update landmark state add tags':
      case 'update landmark state remove tags': {
        const add = a.type === 'update landmark state add tags';
        await changeLandmarkTags(tx, job.organizationId, a.landmarkIds, a.tags, add);
        return;
      }
      case 'mqtt':
        await this.command(tx, job, a);
        return;
      default:
        throw new Error(`unknown action type ${job.type}`);
    }
  }

  /**
   * An mqtt action: the command for the triggering device, rendered, stored
   * with its 'queued' log row and announced (NOTIFY device_commands) in the
   * job's transaction. `{{command.id}}` renders to the command's id, which
   * the device dedupes by.
   */
  private async command(tx: TransactionSql, job: ClaimedJob, a: MqttAction): Promise<void> {
    if (!job.deviceId) return;
    const id = newId();
    const context = { ...job.context, command: { id } };
    const json = a.message === undefined || isJsonMessage(a.message);
    const text =
      a.message === undefined
        ? defaultBody(job.context)
        : json
          ? renderJsonBody(a.message, context)
          : renderTemplate(a.message, context);
    const payload = Buffer.from(text);
    if (payload.length > MAX_COMMAND_BYTES)
      throw new TemplateRenderError(
        `the message rendered to ${payload.length} bytes, over the ${MAX_COMMAND_BYTES} a command may hold`,
      );
    const written = await insertDeviceCommand(tx, {
      id,
      organizationId: job.organizationId,
      deviceId: job.deviceId,
      ruleId: job.ruleId,
      actionId: job.actionId,
      jobId: job.id,
      topic: commandsTopic(job.deviceId),
      payload,
      contentType: json ? 'application/json' : 'text/plain; charset=utf-8',
      qos: a.qos ?? 1,
      expiresInSeconds: a.expiresInSeconds ?? DEFAULT_COMMAND_EXPIRY_SECONDS,
    });
    if (written) await notifyDeviceCommands(tx, [job.deviceId]);
  }

  async stop(): Promise<void> {
    this.stopped = true;
    clearInterval(this.timer);
    await this.unlisten?.().catch(() => {});
    await this.running;
  }
}
