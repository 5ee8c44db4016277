// Rule actions (docs/CONTRACT.md#v2-rules): validated by type, normalised, and
// given an id on save. Secrets (a webhook's basic-auth password, HMAC secret
// and the values of its custom headers, which often carry tokens) are stored
// encrypted (platform/secrets.ts) and never returned, to any role: responses
// show "********" in their place, and sending "********" back for an action
// with the same id keeps the stored value, so a client can PATCH what it
// read. That only holds while the webhook's origin (scheme, host and port)
// stays the same: a masked secret sent with a URL of another origin is
// refused, or a member could send the stored credential to their own server.
import { z } from 'zod';
import { newId } from '../../ids.js';
import { invalid } from '../../errors.js';
import type { Secrets } from '../secrets.js';
import { isJsonContentType, jsonTemplateProblem, templateProblem } from './templates.js';

export const SECRET_MASK = '********';
const TRIGGERING_DEVICE = 'triggering device';
const MAX_ACTIONS = 20;

const ULID = /^[0-9A-HJKMNP-TV-Za-hjkmnp-tv-z]{26}$/;
const ulidString = z
  .string()
  .regex(ULID, 'must be a ULID')
  .transform((s) => s.toUpperCase());
const text = (max: number) => z.string().trim().min(1).max(max);
const optionalText = (max: number) => z.string().max(max).optional();
/** A text whose {{…}} placeholders must all read (templates.ts); refused at save otherwise, naming the placeholder. */
const readableTemplate = (value: string, ctx: z.RefinementCtx) => {
  const problem = templateProblem(value);
  if (problem) ctx.addIssue({ code: 'custom', message: problem });
};
const template = (max: number) => text(max).superRefine(readableTemplate);
const tag = z.string().trim().min(1).max(64);
const tags = z.array(tag).min(1, 'must name at least one tag').max(100);

const recipients = z
  .object({
    emails: z.array(z.string().trim().toLowerCase().max(254).pipe(z.email())).max(100).optional(),
    telephoneNumbers: z
      .array(
        z
          .string()
          .trim()
          .regex(/^\+?[0-9][0-9 ().-]{1,30}$/, 'must be a telephone number'),
      )
      .max(100)
      .optional(),
    deviceIds: z.array(ulidString).max(100).optional(),
    /** Gen B/SDK: true; Gen A: ["triggering device"] */
    reflect: z
      .union([z.boolean(), z.array(z.literal(TRIGGERING_DEVICE)).max(1)])
      .optional()
      .transform((r) => (Array.isArray(r) ? r.length > 0 : r)),
  })
  .strict();

const common = { id: ulidString.optional() };

const push = z
  .object({
    ...common,
    type: z.literal('push'),
    subject: template(256),
    message: template(4096),
    title: optionalText(256),
    url: optionalText(2048),
    submitUrl: optionalText(2048),
    hint: optionalText(1024),
    address: optionalText(1024),
    landmarkId: ulidString.optional(),
    addressTitle: optionalText(256),
    multipleChoice: z.boolean().optional(),
    actions: z
      .array(z.object({ text: text(256), message: optionalText(4096), type: optionalText(64) }).strict())
      .max(20)
      .optional(),
    options: z
      .array(z.object({ text: text(256), value: z.union([z.string().max(1024), z.number(), z.boolean()]) }).strict())
      .max(50)
      .optional(),
    recipients: recipients.optional(),
  })
  .strict();

const email = z
  .object({
    ...common,
    type: z.literal('email'),
    subject: template(998),
    message: template(65_536).optional(),
    /** the original API spells the text `body` */
    body: template(65_536).optional(),
    recipients: recipients
      .extend({ emails: recipients.shape.emails.unwrap().min(1, 'must name at least one address') })
      .strict(),
  })
  .strict()
  .refine((a) => a.message !== undefined || a.body !== undefined, {
    message: 'give the text as message (or body)',
    path: ['message'],
  })
  .refine((a) => a.message === undefined || a.body === undefined, {
    message: 'give message or body, not both',
    path: ['body'],
  });

const sms = z
  .object({
    ...common,
    type: z.literal('sms'),
    message: template(1600),
    recipients,
  })
  .strict()
  .refine((a) => (a.recipients.telephoneNumbers?.length ?? 0) > 0 || a.recipients.reflect === true, {
    message: 'must name at least one telephone number (or reflect to the triggering device)',
    path: ['recipients', 'telephoneNumbers'],
  });

const HEADER_NAME = /^[!#$%&'*+.^_`|~0-9A-Za-z-]{1,128}$/;
const FORBIDDEN_HEADERS = new Set(['host', 'content-length', 'transfer-encoding', 'connection']);
const headerValue = z
  .string()
  .max(4096)
  .regex(/^[^\r\n\0]*$/, 'must not contain line breaks')
  .superRefine(readableTemplate);
const headers = z
  .union([
    z.record(z.string(), headerValue),
    // the doc's example form: [{"header": "Content-Type", "value": "text/json"}]
    z.array(z.object({ header: z.string(), value: headerValue }).strict()).max(50),
  ])
  .transform((h, ctx) => {
    const entries = Array.isArray(h) ? h.map((e) => [e.header, e.value] as const) : Object.entries(h);
    if (entries.length > 50) ctx.addIssue({ code: 'custom', message: 'at most 50 headers' });
    for (const [name] of entries) {
      if (!HEADER_NAME.test(name)) ctx.addIssue({ code: 'custom', message: `"${name}" is not a header name` });
      else if (FORBIDDEN_HEADERS.has(name.toLowerCase()))
        ctx.addIssue({ code: 'custom', message: `the ${name} header is set by the server` });
    }
    return Object.fromEntries(entries) as Record<string, string>;
  });

const webhook = z
  .object({
    ...common,
    type: z.literal('webhook'),
    method: z
      .string()
      .transform((m) => m.toUpperCase())
      .pipe(z.enum(['POST', 'PUT', 'PATCH', 'DELETE', 'GET'])),
    url: z
      .url({ protocol: /^https?$/, error: 'must be an http or https URL' })
      .max(2048)
      .refine(
        (url) => webhookOrigin(url) !== undefined,
        'templates ({{…}}) may only be in the path and query, not in the scheme, user, host or port',
      )
      .superRefine(readableTemplate),
    headers: headers.optional(),
    /** a JSON body may be given as JSON; it is sent as its text */
    body: z
      .union([z.string().max(65_536), z.record(z.string(), z.unknown()), z.array(z.unknown())])
      .optional()
      .transform((b, ctx) => {
        if (b === undefined || typeof b === 'string') return b;
        let text: string | undefined;
        try {
          text = JSON.stringify(b);
        } catch {
          // nested too deeply to serialise
        }
        if (text === undefined || text.length > 65_536) {
          ctx.addIssue({ code: 'custom', message: 'must be at most 64 KiB of JSON' });
          return z.NEVER;
        }
        return text;
      }),
    username: optionalText(256),
    password: z.string().min(1).max(256).optional(),
    timeoutMs: z.number().int().min(100).max(30_000).optional(),
    retries: z.number().int().min(0).max(10).optional(),
    /** signs the body: an HMAC-SHA256 signature header on each request */
    secret: z.union([z.literal(SECRET_MASK), z.string().min(16, 'must be at least 16 characters').max(256)]).optional(),
  })
  .strict()
  .superRefine((a, ctx) => {
    // A body sent as JSON (no Content-Type header, or a JSON one) must be
    // JSON once its placeholders are values: the receiver then always gets
    // JSON. A masked Content-Type cannot be read here; its body is checked
    // when it is rendered.
    if (a.body === undefined || a.method === 'GET') return;
    const contentType = Object.entries(a.headers ?? {}).find(([name]) => name.toLowerCase() === 'content-type')?.[1];
    const problem =
      contentType === SECRET_MASK || !isJsonContentType(contentType)
        ? templateProblem(a.body)
        : jsonTemplateProblem(a.body);
    if (problem) ctx.addIssue({ code: 'custom', path: ['body'], message: problem });
  });

/** A command's message, rendered: at most this many bytes (64 KiB). */
export const MAX_COMMAND_BYTES = 65_536;
/** How long an undelivered command is kept when its action sets no expiresInSeconds: a day. */
export const DEFAULT_COMMAND_EXPIRY_SECONDS = 86_400;

/**
 * Whether a command's message template is JSON: it starts with `{` or `[`
 * (as the MQTT front end reads a device's payload), and then must be JSON
 * once its placeholders are values, as a webhook's JSON body.
 */
export function isJsonMessage(message: string): boolean {
  return /^\s*[{[]/.test(message);
}

/** Publishes to the triggering device's commands topic (devices/<id>/commands). */
const mqttAction = z
  .object({
    ...common,
    type: z.literal('mqtt'),
    /** a template (JSON when it starts with { or [), or JSON itself, sent as its text */
    message: z
      .union([z.string().min(1), z.record(z.string(), z.unknown()), z.array(z.unknown())])
      .optional()
      .transform((m, ctx) => {
        let text: string | undefined;
        try {
          text = typeof m === 'string' || m === undefined ? m : JSON.stringify(m);
        } catch {
          // nested too deeply to serialise
        }
        if (m !== undefined && (text === undefined || Buffer.byteLength(text) > MAX_COMMAND_BYTES)) {
          ctx.addIssue({ code: 'custom', message: `must be at most ${MAX_COMMAND_BYTES} bytes (64 KiB)` });
          return z.NEVER;
        }
        return text;
      })
      .superRefine((m, ctx) => {
        if (m === undefined) return;
        const problem = isJsonMessage(m) ? jsonTemplateProblem(m) : templateProblem(m);
        if (problem) ctx.addIssue({ code: 'custom', message: problem });
      })
      .describe(
        'what the device receives: a template ({{command.id}} among its placeholders), JSON when it starts with { or [, or JSON itself; at most 64 KiB rendered; default {rule, device, event, landmarks}',
      ),
    qos: z
      .union([z.literal(0), z.literal(1)], { error: 'must be 0 or 1 (QoS 2 is not offered)' })
      .optional()
      .describe('1 (default): kept and sent again until the device acknowledges it; 0: sent once'),
    expiresInSeconds: z
      .number()
      .int()
      .min(1)
      .max(7 * 86_400, 'must be at most 604800 (7 days)')
      .optional()
      .describe('how long an undelivered command is kept (default 86400, a day)'),
  })
  .strict();

const deviceIds = z
  .union([
    z.literal(TRIGGERING_DEVICE),
    z
      .array(z.union([z.literal(TRIGGERING_DEVICE), ulidString]))
      .min(1)
      .max(100),
  ])
  .transform((d) => [...new Set(typeof d === 'string' ? [d] : d)]);

const deviceTags = (type: 'update device state add tags' | 'update device state remove tags') =>
  z.object({ ...common, type: z.literal(type), deviceIds, tags }).strict();
const landmarkTags = (type: 'update landmark state add tags' | 'update landmark state remove tags') =>
  z
    .object({
      ...common,
      type: z.literal(type),
      landmarkIds: z
        .array(ulidString)
        .min(1)
        .max(100)
        .transform((ids) => [...new Set(ids)]),
      tags,
    })
    .strict();

export const ACTION_TYPES = [
  'push',
  'email',
  'sms',
  'webhook',
  'mqtt',
  'update device state add tags',
  'update device state remove tags',
  'update landmark state add tags',
  'update landmark state remove tags',
] as const;
type ActionType = (typeof ACTION_TYPES)[number];

const actionSchema = z.discriminatedUnion('type', [
  push,
  email,
  sms,
  webhook,
  mqttAction,
  deviceTags('update device state add tags'),
  deviceTags('update device state remove tags'),
  landmarkTags('update landmark state add tags'),
  landmarkTags('update landmark state remove tags'),
]);

export const actionsSchema = z.array(actionSchema).max(MAX_ACTIONS);

export type ActionInput = z.output<typeof actionSchema>;
/** An action as stored (secrets included) and as the rules engine reads it. */
export type RuleAction = ActionInput & { id: string };
export type WebhookAction = Extract<RuleAction, { type: 'webhook' }>;
export type MqttAction = Extract<RuleAction, { type: 'mqtt' }>;

/**
 * Gives each action an id (keeping the id of an action the rule already has)
 * and resolves masked secrets against the previous actions of the rule,
 * sealing new ones with `secrets`.
 */
export function prepareActions(
  secrets: Secrets,
  input: readonly ActionInput[],
  previous: readonly Record<string, unknown>[] = [],
): RuleAction[] {
  const before = new Map(previous.filter((a) => typeof a.id === 'string').map((a) => [a.id as string, a]));
  const seen = new Set<string>();
  return input.map((action, i) => {
    const old = action.id !== undefined && !seen.has(action.id) ? before.get(action.id) : undefined;
    const id = old ? action.id! : newId();
    seen.add(id);
    const out = { ...action, id } as RuleAction;
    if (out.type === 'email' && out.body !== undefined) {
      out.message = out.body;
      delete out.body;
    }
    if (out.type === 'webhook') resolveWebhookSecrets(secrets, out, old, i);
    return out;
  });
}

/**
 * The origin a webhook URL (template) sends to, whatever its placeholders
 * render to; undefined when a placeholder lies before the path (in the
 * scheme, user, password, host or port), where a value could send the
 * request, its secrets and its headers to another host.
 */
export function webhookOrigin(template: unknown): string | undefined {
  if (typeof template !== 'string') return undefined;
  const authority = /^[a-z][a-z0-9+.-]*:\/\/[^/?#]*/i.exec(template)?.[0];
  if (authority === undefined || /\{\{|\}\}/.test(authority)) return undefined;
  try {
    return new URL(template).origin;
  } catch {
    return undefined;
  }
}

/**
 * Replaces masked secrets with the stored (sealed) values of the same action,
 * refusing them when the URL's origin changed, and seals the new ones.
 */
function resolveWebhookSecrets(
  secrets: Secrets,
  out: WebhookAction,
  old: Record<string, unknown> | undefined,
  i: number,
): void {
  const previous = old?.type === 'webhook' ? old : undefined;
  // A masked secret stays bound to the origin it was given for.
  const origin = webhookOrigin(out.url);
  const sameOrigin = previous !== undefined && origin !== undefined && webhookOrigin(previous.url) === origin;
  const keep = (field: string, stored: unknown): string => {
    if (typeof stored !== 'string') {
      throw invalid(
        'invalid request body',
        `actions.${i}.${field}: "${SECRET_MASK}" stands for the stored value of this action; send the value itself`,
      );
    }
    if (!sameOrigin) {
      throw invalid(
        'send the secret again when the URL changes',
        `actions.${i}.${field}: "${SECRET_MASK}" cannot keep a stored secret for a webhook URL of another origin`,
      );
    }
    return stored;
  };
  for (const key of ['password', 'secret'] as const) {
    const value = out[key];
    if (value === undefined) continue;
    out[key] = value === SECRET_MASK ? keep(key, previous?.[key]) : secrets.seal(value);
  }
  if (out.headers) {
    const storedHeaders = (previous?.headers ?? {}) as Record<string, unknown>;
    const storedByName = new Map(Object.entries(storedHeaders).map(([name, value]) => [name.toLowerCase(), value]));
    out.headers = Object.fromEntries(
      Object.entries(out.headers).map(([name, value]) => [
        name,
        value === SECRET_MASK
          ? keep(`headers.${name}`, storedHeaders[name] ?? storedByName.get(name.toLowerCase()))
          : secrets.seal(value),
      ]),
    );
  }
}

/** An action as the API returns it: its type and its fields, secrets masked. */
export type PresentedAction = { type: ActionType; [field: string]: unknown };

/** Actions as the API returns them: secrets and header values masked, whoever asks. */
export function presentActions(actions: readonly Record<string, unknown>[]): PresentedAction[] {
  // Stored actions were written by prepareActions: each has one of the types.
  return (actions as readonly PresentedAction[]).map((a) => {
    if (a.type !== 'webhook') return a;
    const out = { ...a };
    if (out.password !== undefined) out.password = SECRET_MASK;
    if (out.secret !== undefined) out.secret = SECRET_MASK;
    if (out.headers && typeof out.headers === 'object') {
      out.headers = Object.fromEntries(Object.keys(out.headers).map((name) => [name, SECRET_MASK]));
    }
    return out;
  });
}

/** Devices and landmarks the actions name (not "triggering device"), to check they are the organization's. */
export function actionReferences(actions: readonly RuleAction[]): { deviceIds: string[]; landmarkIds: string[] } {
  const deviceIds = new Set<string>();
  const landmarkIds = new Set<string>();
  for (const a of actions) {
    if (a.type === 'update device state add tags' || a.type === 'update device state remove tags') {
      for (const d of a.deviceIds) if (d !== TRIGGERING_DEVICE) deviceIds.add(d);
    } else if (a.type === 'update landmark state add tags' || a.type === 'update landmark state remove tags') {
      for (const l of a.landmarkIds) landmarkIds.add(l);
    } else if (a.type === 'push' && a.landmarkId) {
      landmarkIds.add(a.landmarkId);
    }
    if ('recipients' in a && a.recipients?.deviceIds) for (const d of a.recipients.deviceIds) deviceIds.add(d);
  }
  return { deviceIds: [...deviceIds], landmarkIds: [...landmarkIds] };
}
