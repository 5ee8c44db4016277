// The one place configuration is read. Every setting comes from the
// environment, has a documented default, and is validated at start-up so a
// typo fails fast with a clear message instead of misbehaving later.
import { readFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { resolve } from 'node:path';
import { createSecureContext } from 'node:tls';
import { parseAllowList } from './lib/ip-ranges.js';
import { decodeSecretsKey } from './lib/secrets-key.js';

export interface Config {
  port: number;
  host: string;
  databaseUrl: string | undefined;
  dataDir: string;
  modelsDir: string;
  workers: number;
  instances: InstanceDefaults;
  batching: BatchingDefaults;
  maxLoadedVersions: number;
  modelMemoryBudgetBytes: number;
  modelLoading: 'eager' | 'lazy';
  /** limits of the process that loads and warms up a new model version before the server does */
  modelValidation: { memoryBytes: number; timeoutMs: number };
  executionProviders: ExecutionProvider[];
  adminEmail: string;
  adminPassword: string | undefined;
  inferenceApiKey: string | undefined;
  maxImageBytes: number;
  maxImagePixels: number;
  queueSize: number;
  queueWaitingRoom: number;
  queueHoldMs: number;
  organizationQueueSize: number;
  maxBufferedBytes: number;
  organizationBufferedBytes: number;
  trustedProxies: number;
  metricsToken: string | undefined;
  minUploadRate: number;
  shutdownTimeoutMs: number;
  logLevel: LogLevel;
  logFormat: LogFormat;
  accessLog: boolean;
  /** check every /v2 success body against its declared response schema (a mismatch: logged 500) */
  responseValidation: boolean;
  /** allowed browser origins; ['*'] for any, [] for no CORS headers at all */
  corsOrigins: string[];
  /** HTTPS on the listening ports; undefined for plain HTTP */
  tls: TlsFiles | undefined;
  jwtSecret: string | undefined;
  jwtTtlSeconds: number;
  smtpUrl: string | undefined;
  mailFrom: string;
  publicUrl: string;
  maxModelBytes: number;
  ingressPort: number | undefined;
  deviceTokenTtlSeconds: number;
  deviceEventRate: number;
  deviceEventBurst: number;
  maxIngestBodyBytes: number;
  actionRetryBaseMs: number;
  /** WEBHOOK_ALLOWED_HOSTS entries, lower-cased and checked */
  webhookAllowedHosts: string[];
  /** SECRETS_KEY as given (32 bytes in base64); undefined: DATA_DIR/secrets-key */
  secretsKey: string | undefined;
}

export const EXECUTION_PROVIDERS = ['tensorrt', 'cuda', 'cpu'] as const;
export type ExecutionProvider = (typeof EXECUTION_PROVIDERS)[number];
export type InstanceKind = 'cpu' | 'gpu';

/** Server-wide defaults of a version's backend instances (model.json may override each). */
export interface InstanceDefaults {
  kind: InstanceKind;
  /** instances per version; undefined: the kind's own default (see defaultInstanceCount) */
  count: number | undefined;
  /** GPU device ids, one instance each by default */
  gpuDevices: number[];
  /** ONNX Runtime threads per CPU session; undefined: cores / instances */
  intraOpThreads: number | undefined;
}

export interface BatchingDefaults {
  maxBatchSize: number;
  maxQueueDelayMs: number;
  /** a batch still running after this long has its instance thread stopped */
  runTimeoutMs: number;
}

export const LOG_LEVELS = ['debug', 'info', 'warn', 'error'] as const;
export type LogLevel = (typeof LOG_LEVELS)[number];
export const LOG_FORMATS = ['text', 'json'] as const;
export type LogFormat = (typeof LOG_FORMATS)[number];

export interface TlsFiles {
  certFile: string;
  keyFile: string;
}

interface Setting {
  name: string;
  default: string;
  help: string;
}

const cores = availableParallelism();

/** Every environment variable the server reads, in the order --help prints them. */
export const SETTINGS: readonly Setting[] = [
  { name: 'PORT', default: '8080', help: 'HTTP port of the inference and management APIs' },
  { name: 'HOST', default: '0.0.0.0', help: 'address to listen on' },
  {
    name: 'DATABASE_URL',
    default: '(embedded)',
    help: 'PostgreSQL URL; without it an embedded PostgreSQL runs in DATA_DIR/postgres',
  },
  { name: 'DATA_DIR', default: './data', help: 'embedded database, uploaded models, generated secrets' },
  { name: 'MODELS_DIR', default: './models', help: 'model directories registered at first start' },
  { name: 'WORKERS', default: `${cores} (one per core)`, help: 'preprocessing worker threads (decode, letterbox, output decoding, NMS)' },
  {
    name: 'EXECUTION_PROVIDERS',
    default: 'cpu',
    help: 'ordered list for GPU instances, e.g. tensorrt,cuda,cpu; the first that loads is used and logged',
  },
  {
    name: 'INSTANCE_KIND',
    default: '(gpu when EXECUTION_PROVIDERS names cuda or tensorrt, else cpu)',
    help: 'cpu | gpu: where a version\'s ONNX Runtime sessions run unless its model.json says',
  },
  {
    name: 'INSTANCE_COUNT',
    default: '(cpu: one per core, at most 4; gpu: one per GPU_DEVICES entry)',
    help: 'ONNX Runtime sessions per model version, each in its own thread',
  },
  { name: 'GPU_DEVICES', default: '0', help: 'comma list of GPU device ids that GPU instances use' },
  {
    name: 'INTRA_OP_THREADS',
    default: '(cores / CPU instances, at least 1)',
    help: 'ONNX Runtime threads per CPU session',
  },
  { name: 'MAX_BATCH_SIZE', default: '8', help: 'largest batch the dynamic batcher forms (models with a batch axis)' },
  {
    name: 'MAX_QUEUE_DELAY_MS',
    default: '2',
    help: 'longest a request waits for others to join its batch while an instance is idle',
  },
  {
    name: 'INFERENCE_TIMEOUT_MS',
    default: '30000',
    help: 'longest one model run may take; past it the instance thread is stopped and its requests answered 500',
  },
  { name: 'MAX_LOADED_VERSIONS', default: '16', help: 'model versions kept loaded; the least recently used are unloaded past it' },
  {
    name: 'MODEL_MEMORY_BUDGET_MB',
    default: '4096',
    help: 'model.onnx bytes x instances kept loaded; the least recently used are unloaded past it',
  },
  {
    name: 'MODEL_LOADING',
    default: 'eager',
    help: 'eager: load every version at start; lazy: versions already Active load on first use',
  },
  {
    name: 'MODEL_VALIDATION_MEMORY_MB',
    default: '2048',
    help: 'memory (RLIMIT_DATA) of the process that loads and warms up a new model version first; past it the version is Failed',
  },
  {
    name: 'MODEL_VALIDATION_TIMEOUT_MS',
    default: '60000',
    help: 'longest a new model version\'s load and warm-up may take in that process; past it the version is Failed',
  },
  { name: 'ADMIN_EMAIL', default: 'admin@example.com', help: 'bootstrap admin, created on first start' },
  { name: 'ADMIN_PASSWORD', default: '(generated, printed once)', help: 'bootstrap admin password' },
  {
    name: 'INFERENCE_API_KEY',
    default: '(generated, printed once)',
    help: 'accepted as an inference key of the bootstrap organization',
  },
  { name: 'MAX_IMAGE_BYTES', default: '10485760', help: 'predict image size limit (10 MB = 10 MiB)' },
  { name: 'MAX_IMAGE_PIXELS', default: '40000000', help: 'decoded pixel limit (decompression-bomb guard)' },
  { name: 'QUEUE_SIZE', default: '(WORKERS x 16)', help: 'requests in flight per model version' },
  {
    name: 'QUEUE_WAITING_ROOM',
    default: '(QUEUE_SIZE x 4)',
    help: 'requests per model version held unread while the queue is full, before 503',
  },
  {
    name: 'ORGANIZATION_QUEUE_SIZE',
    default: '((QUEUE_SIZE + QUEUE_WAITING_ROOM) x 2)',
    help: 'predict requests one organization may have in flight or held, all its versions together, before 503',
  },
  { name: 'QUEUE_HOLD_MS', default: '5000', help: 'how long a held request waits for a queue place before 503' },
  {
    name: 'MAX_BUFFERED_BYTES',
    default: '268435456',
    help: 'request bodies held in memory at once across all requests before 503',
  },
  {
    name: 'ORGANIZATION_BUFFERED_BYTES',
    default: '(MAX_BUFFERED_BYTES / 4)',
    help: "one organization's part of MAX_BUFFERED_BYTES (it may always have one body in memory)",
  },
  {
    name: 'TRUST_PROXY',
    default: '0',
    help: 'reverse proxies in front of the server; the client address is read from their X-Forwarded-For entries',
  },
  {
    name: 'MIN_UPLOAD_RATE',
    default: '8192',
    help: 'bytes/s a request body must average after 5 s of reading, else 408 (0: off)',
  },
  {
    name: 'METRICS_TOKEN',
    default: '(none: /metrics answers this host only)',
    help: 'bearer token that /metrics requires from scrapers',
  },
  { name: 'SHUTDOWN_TIMEOUT_MS', default: '15000', help: 'how long SIGTERM waits for in-flight requests' },
  { name: 'LOG_LEVEL', default: 'info', help: 'debug | info | warn | error' },
  { name: 'LOG_FORMAT', default: 'text', help: 'text | json: one JSON object per line (time, level, msg, fields)' },
  {
    name: 'ACCESS_LOG',
    default: 'false',
    help: 'true | false: one info line per request (method, path without query, status, ms, bytes, request id, client)',
  },
  {
    name: 'RESPONSE_VALIDATION',
    default: 'false',
    help: 'true | false: check every /v2 success body against its documented schema; a mismatch is logged and answered 500 (for tests)',
  },
  {
    name: 'CORS_ORIGINS',
    default: '(none: no CORS headers)',
    help: 'comma list of browser origins (https://app.example.com) allowed to call the APIs, or *',
  },
  { name: 'TLS_CERT', default: '(none: plain HTTP)', help: 'PEM certificate (chain) file; with TLS_KEY the ports speak HTTPS' },
  { name: 'TLS_KEY', default: '(none)', help: 'PEM private key file of TLS_CERT' },
  {
    name: 'JWT_SECRET',
    default: '(generated once into DATA_DIR/jwt-secret)',
    help: 'HS256 signing secret of user tokens, at least 32 characters',
  },
  { name: 'JWT_TTL_SECONDS', default: '2592000 (30 days)', help: 'lifetime of user access tokens' },
  { name: 'SMTP_URL', default: '(none: email stays in the outbox)', help: 'smtp://user:pass@host:port for outgoing email' },
  { name: 'MAIL_FROM', default: 'sense@localhost', help: 'sender address of outgoing email' },
  { name: 'PUBLIC_URL', default: 'http://localhost:PORT', help: 'base URL used in links inside emails' },
  { name: 'MAX_MODEL_BYTES', default: '536870912', help: 'largest model.onnx accepted by the upload API' },
  { name: 'INGRESS_PORT', default: '(same as PORT)', help: 'serve the device ingestion API on its own port' },
  { name: 'DEVICE_TOKEN_TTL_SECONDS', default: '31536000 (1 year)', help: 'lifetime of device tokens from /v1/registration' },
  { name: 'DEVICE_EVENT_RATE', default: '200', help: 'events per second a device may send (sustained) before 429' },
  { name: 'DEVICE_EVENT_BURST', default: '2000', help: 'events a device may send at once above its rate' },
  { name: 'MAX_INGEST_BODY_BYTES', default: '4194304', help: 'largest ingestion request body (a batch)' },
  { name: 'ACTION_RETRY_BASE_MS', default: '1000', help: 'first retry delay of a failed rule action (doubles each time)' },
  {
    name: 'WEBHOOK_ALLOWED_HOSTS',
    default: '(none: internal addresses are refused)',
    help: 'comma list of host names, IP addresses and CIDR ranges rule webhooks may reach although internal (loopback, private, link-local...)',
  },
  {
    name: 'SECRETS_KEY',
    default: '(generated once into DATA_DIR/secrets-key)',
    help: '32 bytes in base64 (openssl rand -base64 32): the AES-256-GCM key of stored webhook secrets; set the same on every server of a database',
  },
];

export class ConfigError extends Error {}

type Env = Record<string, string | undefined>;

function integer(env: Env, name: string, fallback: number, min: number, max = Number.MAX_SAFE_INTEGER): number {
  const raw = env[name];
  if (raw === undefined || raw.trim() === '') return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < min || value > max) {
    throw new ConfigError(`${name} must be an integer between ${min} and ${max}, got "${raw}"`);
  }
  return value;
}

function oneOf<T extends string>(name: string, raw: string, allowed: readonly T[]): T {
  if (!(allowed as readonly string[]).includes(raw)) {
    throw new ConfigError(`${name} must be one of ${allowed.join(', ')}, got "${raw}"`);
  }
  return raw as T;
}

function optional(env: Env, name: string): string | undefined {
  const raw = env[name];
  return raw === undefined || raw === '' ? undefined : raw;
}

/** A separate ingestion port, or undefined when it is the main port. */
function ingressPort(env: Env): number | undefined {
  if (optional(env, 'INGRESS_PORT') === undefined) return undefined;
  const port = integer(env, 'INGRESS_PORT', 0, 0, 65535);
  return port === integer(env, 'PORT', 8080, 0, 65535) && port !== 0 ? undefined : port;
}

function integerList(env: Env, name: string, fallback: number[], min: number, max: number): number[] {
  const raw = optional(env, name);
  if (raw === undefined) return fallback;
  const values = raw.split(',').map((part) => Number(part.trim()));
  if (values.length === 0 || values.some((v) => !Number.isInteger(v) || v < min || v > max)) {
    throw new ConfigError(`${name} must be a comma list of integers between ${min} and ${max}, got "${raw}"`);
  }
  return [...new Set(values)];
}

function optionalInteger(env: Env, name: string, min: number, max: number): number | undefined {
  return optional(env, name) === undefined ? undefined : integer(env, name, 0, min, max);
}

function boolean(env: Env, name: string, fallback: boolean): boolean {
  const raw = optional(env, name)?.trim().toLowerCase();
  if (raw === undefined) return fallback;
  if (raw === 'true' || raw === '1') return true;
  if (raw === 'false' || raw === '0') return false;
  throw new ConfigError(`${name} must be true or false, got "${env[name]}"`);
}

/**
 * Browser origins are compared as browsers send them: scheme://host[:port],
 * lower case, no path. Anything else could never match, so it is refused.
 */
function corsOrigins(env: Env): string[] {
  const raw = optional(env, 'CORS_ORIGINS');
  if (raw === undefined) return [];
  const origins = raw.split(',').map((o) => o.trim().toLowerCase().replace(/\/+$/, '')).filter((o) => o !== '');
  if (origins.includes('*')) {
    if (origins.length > 1) throw new ConfigError(`CORS_ORIGINS is either * or a list of origins, got "${raw}"`);
    return origins;
  }
  for (const origin of origins) {
    if (!/^https?:\/\/[a-z0-9.-]+(:\d{1,5})?$|^https?:\/\/\[[0-9a-f:.]+\](:\d{1,5})?$/.test(origin)) {
      throw new ConfigError(`CORS_ORIGINS entries must be origins like https://app.example.com (scheme, host, optional port, no path), got "${origin}"`);
    }
  }
  return [...new Set(origins)];
}

/**
 * Both files or neither, readable, and a certificate and key that belong
 * together: uWS would otherwise start without TLS or refuse every handshake
 * without saying why.
 */
function tlsFiles(env: Env): TlsFiles | undefined {
  const certFile = optional(env, 'TLS_CERT');
  const keyFile = optional(env, 'TLS_KEY');
  if (certFile === undefined && keyFile === undefined) return undefined;
  if (certFile === undefined || keyFile === undefined) {
    throw new ConfigError(`TLS_CERT and TLS_KEY go together: ${certFile === undefined ? 'TLS_KEY' : 'TLS_CERT'} is set, ${certFile === undefined ? 'TLS_CERT' : 'TLS_KEY'} is not`);
  }
  const read = (name: string, file: string) => {
    try {
      return readFileSync(file, 'utf8');
    } catch (error) {
      throw new ConfigError(`${name} cannot be read: ${(error as Error).message}`);
    }
  };
  const cert = read('TLS_CERT', certFile);
  const key = read('TLS_KEY', keyFile);
  try {
    createSecureContext({ cert, key });
  } catch (error) {
    throw new ConfigError(`TLS_CERT (${certFile}) and TLS_KEY (${keyFile}) are not a PEM certificate and its private key: ${(error as Error).message}`);
  }
  return { certFile: resolve(certFile), keyFile: resolve(keyFile) };
}

function jwtSecret(env: Env): string | undefined {
  const secret = optional(env, 'JWT_SECRET');
  if (secret !== undefined && secret.length < 32) throw new ConfigError('JWT_SECRET must be at least 32 characters');
  return secret;
}

function webhookAllowedHosts(env: Env): string[] {
  const entries = (optional(env, 'WEBHOOK_ALLOWED_HOSTS') ?? '').split(',').map((e) => e.trim().toLowerCase()).filter((e) => e !== '');
  try {
    parseAllowList(entries);
  } catch (error) {
    throw new ConfigError(`WEBHOOK_ALLOWED_HOSTS: ${(error as Error).message}`);
  }
  return entries;
}

function secretsKey(env: Env): string | undefined {
  const key = optional(env, 'SECRETS_KEY');
  if (key === undefined) return undefined;
  try {
    decodeSecretsKey(key);
  } catch (error) {
    throw new ConfigError((error as Error).message);
  }
  return key;
}

export function loadConfig(env: Env = process.env): Config {
  const workers = integer(env, 'WORKERS', cores, 1, 256);
  const providers = (optional(env, 'EXECUTION_PROVIDERS') ?? 'cpu')
    .split(',')
    .map((p) => p.trim().toLowerCase())
    .filter((p) => p !== '')
    .map((p) => oneOf('EXECUTION_PROVIDERS', p, EXECUTION_PROVIDERS));
  // CPU is always the last resort, so a GPU host with a broken driver still serves.
  if (!providers.includes('cpu')) providers.push('cpu');

  const gpuProvider = providers.some((p) => p !== 'cpu');
  const queueSize = integer(env, 'QUEUE_SIZE', workers * 16, 1);
  const queueWaitingRoom = integer(env, 'QUEUE_WAITING_ROOM', queueSize * 4, 0);
  const maxBufferedBytes = integer(env, 'MAX_BUFFERED_BYTES', 256 * 1024 * 1024, 1024 * 1024);
  return {
    port: integer(env, 'PORT', 8080, 0, 65535),
    host: optional(env, 'HOST') ?? '0.0.0.0',
    databaseUrl: optional(env, 'DATABASE_URL'),
    dataDir: resolve(optional(env, 'DATA_DIR') ?? './data'),
    modelsDir: resolve(optional(env, 'MODELS_DIR') ?? './models'),
    workers,
    instances: {
      kind: oneOf('INSTANCE_KIND', optional(env, 'INSTANCE_KIND') ?? (gpuProvider ? 'gpu' : 'cpu'), ['cpu', 'gpu'] as const),
      count: optionalInteger(env, 'INSTANCE_COUNT', 1, 64),
      gpuDevices: integerList(env, 'GPU_DEVICES', [0], 0, 63),
      intraOpThreads: optionalInteger(env, 'INTRA_OP_THREADS', 1, 256),
    },
    batching: {
      maxBatchSize: integer(env, 'MAX_BATCH_SIZE', 8, 1, 256),
      maxQueueDelayMs: integer(env, 'MAX_QUEUE_DELAY_MS', 2, 0, 1000),
      runTimeoutMs: integer(env, 'INFERENCE_TIMEOUT_MS', 30_000, 10, 3_600_000),
    },
    maxLoadedVersions: integer(env, 'MAX_LOADED_VERSIONS', 16, 1, 10_000),
    modelMemoryBudgetBytes: integer(env, 'MODEL_MEMORY_BUDGET_MB', 4096, 1, 1024 * 1024) * 1024 * 1024,
    modelLoading: oneOf('MODEL_LOADING', optional(env, 'MODEL_LOADING') ?? 'eager', ['eager', 'lazy'] as const),
    modelValidation: {
      memoryBytes: integer(env, 'MODEL_VALIDATION_MEMORY_MB', 2048, 256, 1024 * 1024) * 1024 * 1024,
      timeoutMs: integer(env, 'MODEL_VALIDATION_TIMEOUT_MS', 60_000, 1000, 3_600_000),
    },
    executionProviders: [...new Set(providers)],
    adminEmail: (optional(env, 'ADMIN_EMAIL') ?? 'admin@example.com').toLowerCase(),
    adminPassword: optional(env, 'ADMIN_PASSWORD'),
    inferenceApiKey: optional(env, 'INFERENCE_API_KEY'),
    maxImageBytes: integer(env, 'MAX_IMAGE_BYTES', 10 * 1024 * 1024, 1),
    maxImagePixels: integer(env, 'MAX_IMAGE_PIXELS', 40_000_000, 1),
    queueSize,
    queueWaitingRoom,
    queueHoldMs: integer(env, 'QUEUE_HOLD_MS', 5000, 0, 60_000),
    organizationQueueSize: integer(env, 'ORGANIZATION_QUEUE_SIZE', (queueSize + queueWaitingRoom) * 2, 1),
    maxBufferedBytes,
    organizationBufferedBytes: integer(env, 'ORGANIZATION_BUFFERED_BYTES', Math.floor(maxBufferedBytes / 4), 1),
    trustedProxies: integer(env, 'TRUST_PROXY', 0, 0, 16),
    metricsToken: optional(env, 'METRICS_TOKEN'),
    minUploadRate: integer(env, 'MIN_UPLOAD_RATE', 8192, 0),
    shutdownTimeoutMs: integer(env, 'SHUTDOWN_TIMEOUT_MS', 15_000, 0),
    logLevel: oneOf('LOG_LEVEL', optional(env, 'LOG_LEVEL') ?? 'info', LOG_LEVELS),
    logFormat: oneOf('LOG_FORMAT', optional(env, 'LOG_FORMAT') ?? 'text', LOG_FORMATS),
    accessLog: boolean(env, 'ACCESS_LOG', false),
    responseValidation: boolean(env, 'RESPONSE_VALIDATION', false),
    corsOrigins: corsOrigins(env),
    tls: tlsFiles(env),
    jwtSecret: jwtSecret(env),
    jwtTtlSeconds: integer(env, 'JWT_TTL_SECONDS', 30 * 24 * 3600, 60),
    smtpUrl: optional(env, 'SMTP_URL'),
    mailFrom: optional(env, 'MAIL_FROM') ?? 'sense@localhost',
    publicUrl: (optional(env, 'PUBLIC_URL') ?? `http://localhost:${optional(env, 'PORT') ?? '8080'}`).replace(/\/+$/, ''),
    maxModelBytes: integer(env, 'MAX_MODEL_BYTES', 512 * 1024 * 1024, 1024),
    ingressPort: ingressPort(env),
    deviceTokenTtlSeconds: integer(env, 'DEVICE_TOKEN_TTL_SECONDS', 365 * 24 * 3600, 60),
    deviceEventRate: integer(env, 'DEVICE_EVENT_RATE', 200, 1),
    deviceEventBurst: integer(env, 'DEVICE_EVENT_BURST', 2000, 1),
    maxIngestBodyBytes: integer(env, 'MAX_INGEST_BODY_BYTES', 4 * 1024 * 1024, 1024),
    actionRetryBaseMs: integer(env, 'ACTION_RETRY_BASE_MS', 1000, 10),
    webhookAllowedHosts: webhookAllowedHosts(env),
    secretsKey: secretsKey(env),
  };
}

export function helpText(): string {
  const width = Math.max(...SETTINGS.map((s) => s.name.length));
  const lines = SETTINGS.map((s) => `  ${s.name.padEnd(width)}  ${s.help} [default: ${s.default}]`);
  return [
    'Usage: npm start            (or: node --max-semi-space-size=64 --import tsx src/main.ts)',
    '',
    'Object-detection inference server with a device-data platform.',
    'Configuration is read from the environment:',
    '',
    ...lines,
    '',
  ].join('\n');
}
