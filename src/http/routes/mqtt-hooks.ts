// A broker's HTTP auth hooks (docs/CONTRACT.md, "MQTT broker hooks"):
// POST /v1/mqtt/auth (may this client connect?) and POST /v1/mqtt/acl (may
// it publish to or subscribe to this topic?), decided by ingest/mqtt-hooks.ts
// as the server's own MQTT listener decides. Two brokers' request shapes are
// taken, told apart by the body:
//
// - EMQX 5's HTTP authentication and authorization: a JSON body the operator
//   writes (docs/OPERATIONS.md gives it), with `action` on the ACL; the
//   answer is always 200 with {"result": "allow" | "deny"} (EMQX reads any
//   other status as "ignore", which its authorization turns into allow when
//   nothing else matches).
// - mosquitto-go-auth's HTTP backend: exactly {"username", "password",
//   "clientid"} for the user check and {"username", "clientid", "topic",
//   "acc"} for the ACL (JSON or a form); the answer is 200 when allowed and
//   403 when denied, with {"ok", "error"} for its response_mode json. Its
//   answers carry EMQX's "result" too, so a body taken for the wrong broker's
//   still reads allow or deny (or EMQX's ignore, never an allow by mistake).
//
// The routes exist only with MQTT_AUTH_HOOK_SECRET (404 otherwise), which
// the broker sends as Authorization: Bearer <secret>, or, from
// mosquitto-go-auth, which sends no header of the operator's, as the
// `secret` query parameter (the access log writes no query string). Their
// bodies are a few hundred bytes, read at most 8 KiB under the strangers'
// body budget.
import { timingSafeEqual } from 'node:crypto';
import { z } from 'zod';
import type { MqttHooks, TopicAccess } from '../../ingest/mqtt-hooks.js';
import { ApiError } from '../errors.js';
import { defineEndpoint, respond, type ApiResponse, type ContentParser, type Endpoint } from '../api.js';
import type { Request } from '../request.js';

/** A hook's body: a user name, a password or topic, a few ids. */
const MAX_HOOK_BODY_BYTES = 8 * 1024;

const text = z.string().max(4096);

const emqxAuth = z.object({ username: text, password: text.default(''), clientid: text.optional() }).passthrough();
const goAuthUser = z.object({ username: text, password: text, clientid: text }).strict();
const emqxAcl = z
  .object({ username: text, topic: text, action: z.enum(['publish', 'subscribe']), clientid: text.optional() })
  .passthrough();
const goAuthAcl = z.object({ username: text, clientid: text, topic: text, acc: z.coerce.number().int() }).passthrough();

/** The fields of a hook's body: JSON, or a form (mosquitto-go-auth's http_params_mode form). */
const hookBody: ContentParser<Record<string, unknown>> = {
  parse(bytes, request) {
    const body = Buffer.from(bytes).toString('utf8');
    if ((request.headers['content-type'] ?? '').toLowerCase().startsWith('application/x-www-form-urlencoded'))
      return Object.fromEntries(new URLSearchParams(body));
    let value: unknown;
    try {
      value = JSON.parse(body);
    } catch {
      throw new ApiError(400, 'invalid request body', 'expected a JSON object (or a form)');
    }
    if (typeof value !== 'object' || value === null || Array.isArray(value))
      throw new ApiError(400, 'invalid request body', 'expected a JSON object');
    return value as Record<string, unknown>;
  },
  doc: {
    'application/json': {
      schema: z.union([emqxAuth, goAuthUser, emqxAcl, goAuthAcl]),
    },
    'application/x-www-form-urlencoded': { schema: z.union([goAuthUser, goAuthAcl]) },
  },
};

/** EMQX's answer: always 200, the verdict in the body. */
function emqxAnswer(allow: boolean): ApiResponse {
  return respond.bare({ result: allow ? 'allow' : 'deny' });
}

/** mosquitto-go-auth's: 200 or 403 (response_mode status), {"ok", "error"} (json), and EMQX's result beside. */
function goAuthAnswer(allow: boolean, reason: string): ApiResponse {
  return respond.bare({ ok: allow, error: allow ? '' : reason, result: allow ? 'allow' : 'deny' }, allow ? 200 : 403);
}

/** mosquitto-go-auth's `acc`: 1 read, 2 write, 4 subscribe; 3 (read and write) needs both. */
function goAuthAccesses(acc: number): TopicAccess[] | undefined {
  const accesses: TopicAccess[] = [];
  if (acc & 1) accesses.push('read');
  if (acc & 2) accesses.push('publish');
  if (acc & 4) accesses.push('subscribe');
  return accesses.length === 0 || acc & ~7 ? undefined : accesses;
}

function invalid(parsed: z.ZodError | undefined, what: string): ApiError {
  return new ApiError(400, 'invalid request body', parsed?.issues[0]?.message ?? what);
}

const verdicts = {
  200: {
    description:
      'EMQX: {"result": "allow" | "deny"}; mosquitto-go-auth: allowed, {"ok": true, "error": "", "result": "allow"}',
    schema: z.object({ result: z.enum(['allow', 'deny']), ok: z.boolean().optional(), error: z.string().optional() }),
  },
  400: { description: 'a body of neither shape' },
  401: { description: 'without the secret (MQTT_AUTH_HOOK_SECRET)' },
  403: {
    description: 'mosquitto-go-auth: denied, {"ok": false, "error": "<why>", "result": "deny"}',
  },
};

const secretDoc = [
  {
    name: 'authorization',
    description: 'Bearer <MQTT_AUTH_HOOK_SECRET> (or the `secret` query parameter, for brokers that send no header)',
  },
];

/** The hooks, or none when MQTT_AUTH_HOOK_SECRET is unset (their paths then answer 404). */
export function mqttHookEndpoints(deps: { hooks: MqttHooks; secret: string | undefined }): Endpoint[] {
  if (deps.secret === undefined) return [];
  const expected = Buffer.from(deps.secret);
  const checkSecret = (request: Request) => {
    const header = /^Bearer\s+(\S+)\s*$/i.exec(request.headers.authorization ?? '')?.[1];
    const given = Buffer.from(header ?? request.query.get('secret') ?? '');
    if (given.length !== expected.length || !timingSafeEqual(given, expected))
      throw new ApiError(
        401,
        'authentication required',
        'the hook needs "Authorization: Bearer <MQTT_AUTH_HOOK_SECRET>"',
      );
  };
  const { hooks } = deps;
  return [
    defineEndpoint({
      method: 'post',
      path: '/v1/mqtt/auth',
      tag: 'ingestion',
      summary: "a broker's authentication hook: may this device connect?",
      description:
        "A broker's HTTP authentication (EMQX 5, mosquitto-go-auth) for devices that publish to it: the user name is the device id, the password its device token, valid as on HTTP (a revoked device is denied). The server's own broker user (MQTT_BROKER_USERNAME) is let in with its password.",
      operationId: 'mqttAuthHook',
      auth: 'none',
      headers: secretDoc,
      content: hookBody,
      bodyLimit: MAX_HOOK_BODY_BYTES,
      responses: verdicts,
      async handler({ body, request }) {
        checkSecret(request);
        const goAuth = goAuthUser.safeParse(body);
        if (goAuth.success) {
          const verdict = await hooks.authenticate(goAuth.data.username, goAuth.data.password);
          return goAuthAnswer(verdict.allow, verdict.reason);
        }
        const emqx = emqxAuth.safeParse(body);
        if (!emqx.success) throw invalid(emqx.error, 'expected username and password');
        return emqxAnswer((await hooks.authenticate(emqx.data.username, emqx.data.password)).allow);
      },
    }),
    defineEndpoint({
      method: 'post',
      path: '/v1/mqtt/acl',
      tag: 'ingestion',
      summary: "a broker's authorization hook: may this client publish to or subscribe to this topic?",
      description:
        "A broker's HTTP authorization (EMQX 5: `action` publish or subscribe; mosquitto-go-auth: `acc` 1 read, 2 write, 4 subscribe): a device publishes only to its own devices/<id>/events and /mobile and subscribes only to its own devices/<id>/commands; the server's own broker user subscribes to every device's events and mobile topics.",
      operationId: 'mqttAclHook',
      auth: 'none',
      headers: secretDoc,
      content: hookBody,
      bodyLimit: MAX_HOOK_BODY_BYTES,
      responses: verdicts,
      handler({ body, request }) {
        checkSecret(request);
        if ('acc' in body) {
          const goAuth = goAuthAcl.safeParse(body);
          const accesses = goAuth.success ? goAuthAccesses(goAuth.data.acc) : undefined;
          if (!goAuth.success || !accesses) throw invalid(goAuth.error, 'acc is 1 (read), 2 (write) or 4 (subscribe)');
          const refused = accesses
            .map((access) => hooks.authorize(goAuth.data.username, goAuth.data.topic, access))
            .find((verdict) => !verdict.allow);
          return goAuthAnswer(refused === undefined, refused?.reason ?? '');
        }
        const emqx = emqxAcl.safeParse(body);
        if (!emqx.success) throw invalid(emqx.error, 'expected username, topic and action (or acc)');
        return emqxAnswer(hooks.authorize(emqx.data.username, emqx.data.topic, emqx.data.action).allow);
      },
    }),
  ];
}
