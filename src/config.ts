// The one place configuration is read. Every setting comes from the
// environment, has a documented default, and is validated at start-up so a
// typo fails fast with a clear message instead of misbehaving later.
import { readFileSync } from 'node:fs';
import { availableParallelism, totalmem } from 'node:os';
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
  /** versions run rewritten: uint8 pixels in, a dense head's candidates out (inference/prepared-model.ts) */
  graphRewrite: boolean;
  /** precision of GPU instances whose model.json does not say */
  gpuPrecision: 'fp32' | 'fp16';
  /** which versions' instances run in child processes under instanceMemoryBytes */
  modelIsolation: 'stored' | 'all' | 'none';
  /** RLIMIT_DATA of an isolated version's instance process */
  instanceMemoryBytes: number;
  /** what all isolated instance processes may hold resident together (VmRSS) before idle ones are unloaded and requests wait */
  isolatedMemoryBytes: number;
  /** the same, for one organization's isolated instance processes */
  organizationIsolatedMemoryBytes: number;
  /** limits of the process that loads and warms up a new model version before the server does */
  modelValidation: { memoryBytes: number; timeoutMs: number };
  executionProviders: ExecutionProvider[];
  adminEmail: string;
  adminPassword: string | undefined;
  inferenceApiKey: string | undefined;
  maxImageBytes: number;
  maxImagePixels: number;
  /** JPEG_DECODER: auto (libturbojpeg where the addon has it) or one pinned, so that servers built on different machines decode alike */
  jpegDecoder: 'auto' | 'libturbojpeg' | 'sharp';
  queueSize: number;
  queueWaitingRoom: number;
  queueHoldMs: number;
  organizationQueueSize: number;
  maxBufferedBytes: number;
  organizationBufferedBytes: number;
  /** bodies of senders not (yet) known: unauthenticated routes, small bodies read while their caller is checked */
  unauthenticatedBufferedBytes: number;
  /** one client address's part of unauthenticatedBufferedBytes */
  unauthenticatedBytesPerAddress: number;
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
  /** where uploaded models' files are kept for every replica */
  modelStore: ModelStoreConfig;
  ingressPort: number | undefined;
  deviceTokenTtlSeconds: number;
  deviceEventRate: number;
  deviceEventBurst: number;
  maxIngestBodyBytes: number;
  actionRetryBaseMs: number;
  /** milliseconds of rule evaluation per second each organization may use (platform/rules/budget.ts) */
  ruleEvaluationMsPerSecond: number;
  /** 0: events are kept forever */
  eventRetentionDays: number;
  /** the most bytes of camera frames one organization keeps (KEPT_FRAMES_MAX_MB) */
  keptFramesMaxBytes: number;
  /** the most bytes of camera frames the organizations one account created keep together (KEPT_FRAMES_ACCOUNT_MAX_MB) */
  keptFramesAccountMaxBytes: number;
  /** the most bytes of camera frames kept in all, every organization together (KEPT_FRAMES_TOTAL_MAX_MB) */
  keptFramesTotalMaxBytes: number;
  /** the live event tail (GET /v2/events/stream): see platform/event-tail.ts */
  eventStreams: EventStreamSettings;
  /** WEBHOOK_ALLOWED_HOSTS entries, lower-cased and checked */
  webhookAllowedHosts: string[];
  /** the console maps' default tile source (MAP_TILE_URL) */
  mapTileUrl: string | undefined;
  /** SECRETS_KEY as given (32 bytes in base64); undefined: DATA_DIR/secrets-key */
  secretsKey: string | undefined;
}

/** The live event tail's limits (GET /v2/events/stream). */
interface EventStreamSettings {
  /** how often each server reads new events for an organization with streams open on it (one query each time) */
  pollMs: number;
  /** streams one organization may have open on one server before 429 */
  perOrganization: number;
  /** streams one server may have open, all organizations together, before 429 */
  perServer: number;
  /** bytes of events one stream may hold for a client that reads too slowly before it is dropped */
  bufferBytes: number;
}

export const EXECUTION_PROVIDERS = ['tensorrt', 'cuda', 'webgpu', 'cpu'] as const;
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
  /** what drives each session: onnxruntime-node, the native runner, or auto (native for CUDA) */
  runner: 'auto' | 'onnxruntime-node' | 'native';
  /** ONNX Runtime CUDA provider options the native runner sets, by their names */
  cudaOptions: Record<string, string>;
  /** the native runner's CUDA sessions copy through page-locked host memory */
  pinnedMemory: boolean;
}

export interface BatchingDefaults {
  /** model.json's batching.maxBatchSize overrides it (see maxBatchSizeOf) */
  maxBatchSize: number;
  maxQueueDelayMs: number;
  /** a batch still running after this long has its instance thread stopped */
  runTimeoutMs: number;
}

const LOG_LEVELS = ['debug', 'info', 'warn', 'error'] as const;
export type LogLevel = (typeof LOG_LEVELS)[number];
const LOG_FORMATS = ['text', 'json'] as const;
export type LogFormat = (typeof LOG_FORMATS)[number];

interface TlsFiles {
  certFile: string;
  keyFile: string;
}

export class ConfigError extends Error {}

type Env = Record<string, string | undefined>;

/** How a setting's text becomes its value. */
interface Kind<T> {
  parse(raw: string, name: string): T;
  /** a value of spaces only counts as unset too (numbers); otherwise only an empty one does */
  blankIsUnset?: boolean;
}

/** One environment variable: its default, written once, and how it is read. */
export interface Setting<T = unknown> {
  readonly name: string;
  readonly help: string;
  /** the default, spelled as in the environment; undefined where there is none or it is worked out at start (see `shown`) */
  readonly default: string | undefined;
  /** the default as --help prints it */
  readonly shown: string;
  /** the default as the configuration table of docs/OPERATIONS.md writes it: `shown`, except where that depends on the host */
  readonly documented: string;
  /** the environment's text, else the default's; undefined when unset without a default */
  raw(env: Env): string | undefined;
  /** `raw`, parsed; undefined when unset without a default */
  read(env: Env): T;
}

/** Reads a setting by name (its value, or its default, worked out too): what a derived default is computed from. */
type Lookup = (name: string) => unknown;

type Spec<T> = Omit<Setting<T>, 'name' | 'raw' | 'read'> & { kind: Kind<unknown>; derive?: (get: Lookup) => T };

function rawOf(env: Env, name: string, kind: Kind<unknown>, fallback: string | undefined): string | undefined {
  const raw = env[name];
  const unset = raw === undefined || raw === '' || (kind.blankIsUnset === true && raw.trim() === '');
  return unset ? fallback : raw;
}

/** A setting whose default is a value (`note` glosses it; `perHost`: it depends on the machine, so docs/OPERATIONS.md gives the note only). */
function value<T>(kind: Kind<T>, defaultValue: string, help: string, options: { note?: string; perHost?: boolean } = {}): Spec<T> {
  const shown = options.note === undefined ? defaultValue : `${defaultValue} (${options.note})`;
  return { kind, default: defaultValue, shown, documented: options.perHost ? `(${options.note})` : shown, help };
}

/**
 * A setting whose default is worked out from others when it is unset:
 * `shown` says how, for --help and docs/OPERATIONS.md, and `derive` does it, side by side.
 */
function derived<T>(kind: Kind<T>, shown: string, help: string, derive: (get: Lookup) => T): Spec<T> {
  return { kind, default: undefined, shown, documented: shown, help, derive };
}

/** A setting with no default value: unset, it is undefined and `shown` says what happens then. */
function unset<T>(kind: Kind<T>, shown: string, help: string): Spec<T | undefined> {
  return { kind, default: undefined, shown, documented: shown, help };
}

const integer = (min: number, max = Number.MAX_SAFE_INTEGER): Kind<number> => ({
  blankIsUnset: true,
  parse(raw, name) {
    const value = Number(raw);
    if (!Number.isInteger(value) || value < min || value > max) {
      throw new ConfigError(`${name} must be an integer between ${min} and ${max}, got "${raw}"`);
    }
    return value;
  },
});

/** An integer number of MiB, read as bytes. */
const mebibytes = (min: number, max: number): Kind<number> => {
  const mib = integer(min, max);
  return { blankIsUnset: true, parse: (raw, name) => mib.parse(raw, name) * 1024 * 1024 };
};

const text: Kind<string> = { parse: (raw) => raw };

/** An http(s) tile URL template with {z}, {x} and {y}, as map libraries take them. */
const tileTemplate: Kind<string> = {
  parse(raw, name) {
    const value = raw.trim();
    if (!/^https?:\/\/\S+$/.test(value) || !['{z}', '{x}', '{y}'].every((part) => value.includes(part))) {
      throw new ConfigError(`${name} must be an http(s) URL template with {z}, {x} and {y}, e.g. https://tile.openstreetmap.org/{z}/{x}/{y}.png, got "${raw}"`);
    }
    return value;
  },
};
const path: Kind<string> = { parse: (raw) => resolve(raw) };
const lowerCase: Kind<string> = { parse: (raw) => raw.toLowerCase() };

function oneOf<T extends string>(allowed: readonly T[]): Kind<T> {
  return {
    parse(raw, name) {
      if (!(allowed as readonly string[]).includes(raw)) {
        throw new ConfigError(`${name} must be one of ${allowed.join(', ')}, got "${raw}"`);
      }
      return raw as T;
    },
  };
}

const boolean: Kind<boolean> = {
  parse(raw, name) {
    const word = raw.trim().toLowerCase();
    if (word === 'true' || word === '1') return true;
    if (word === 'false' || word === '0') return false;
    throw new ConfigError(`${name} must be true or false, got "${raw}"`);
  },
};

/** key=value pairs, comma-separated ('' for none). */
const keyValueList: Kind<Record<string, string>> = {
  parse(raw, name) {
    const pairs: Record<string, string> = {};
    for (const part of raw.split(',').map((p) => p.trim()).filter((p) => p !== '')) {
      const match = /^([A-Za-z0-9_.]+)=(.*)$/.exec(part);
      if (!match) throw new ConfigError(`${name} must be a comma list of key=value, got "${part}"`);
      pairs[match[1]!] = match[2]!.trim();
    }
    return pairs;
  },
};

function integerList(min: number, max: number): Kind<number[]> {
  return {
    parse(raw, name) {
      const values = raw.split(',').map((part) => Number(part.trim()));
      if (values.length === 0 || values.some((v) => !Number.isInteger(v) || v < min || v > max)) {
        throw new ConfigError(`${name} must be a comma list of integers between ${min} and ${max}, got "${raw}"`);
      }
      return [...new Set(values)];
    },
  };
}

/** In the order given; CPU is always the last resort, so a GPU host with a broken driver still serves. */
const executionProviders: Kind<ExecutionProvider[]> = {
  parse(raw, name) {
    const provider = oneOf(EXECUTION_PROVIDERS);
    const providers = raw
      .split(',')
      .map((p) => p.trim().toLowerCase())
      .filter((p) => p !== '')
      .map((p) => provider.parse(p, name));
    if (!providers.includes('cpu')) providers.push('cpu');
    return [...new Set(providers)];
  },
};

/**
 * Browser origins are compared as browsers send them: scheme://host[:port],
 * lower case, no path. Anything else could never match, so it is refused.
 */
const corsOrigins: Kind<string[]> = {
  parse(raw, name) {
    const origins = raw.split(',').map((o) => o.trim().toLowerCase().replace(/\/+$/, '')).filter((o) => o !== '');
    if (origins.includes('*')) {
      if (origins.length > 1) throw new ConfigError(`${name} is either * or a list of origins, got "${raw}"`);
      return origins;
    }
    for (const origin of origins) {
      if (!/^https?:\/\/[a-z0-9.-]+(:\d{1,5})?$|^https?:\/\/\[[0-9a-f:.]+\](:\d{1,5})?$/.test(origin)) {
        throw new ConfigError(`${name} entries must be origins like https://app.example.com (scheme, host, optional port, no path), got "${origin}"`);
      }
    }
    return [...new Set(origins)];
  },
};

const jwtSecret: Kind<string> = {
  parse(raw, name) {
    if (raw.length < 32) throw new ConfigError(`${name} must be at least 32 characters`);
    return raw;
  },
};

const allowedHosts: Kind<string[]> = {
  parse(raw, name) {
    const entries = raw.split(',').map((e) => e.trim().toLowerCase()).filter((e) => e !== '');
    try {
      parseAllowList(entries);
    } catch (error) {
      throw new ConfigError(`${name}: ${(error as Error).message}`);
    }
    return entries;
  },
};

const secretsKey: Kind<string> = {
  parse(raw) {
    try {
      decodeSecretsKey(raw);
    } catch (error) {
      throw new ConfigError((error as Error).message);
    }
    return raw;
  },
};

const cores = availableParallelism();

/**
 * Every environment variable the server reads, in the order --help prints
 * them: each default is written here once, and --help, the table of
 * docs/OPERATIONS.md (a test compares) and loadConfig all take it from here.
 */
const SPECS = {
  PORT: value(integer(0, 65535), '8080', 'HTTP port of the inference and management APIs'),
  HOST: value(text, '0.0.0.0', 'address to listen on'),
  DATABASE_URL: unset(text, '(embedded)', 'PostgreSQL URL; without it an embedded PostgreSQL runs in DATA_DIR/postgres'),
  DATA_DIR: value(path, './data', 'embedded database, uploaded models, generated secrets'),
  MODELS_DIR: value(path, './models', 'model directories registered at first start'),
  WORKERS: value(integer(1, 256), String(cores), 'preprocessing worker threads (decode, letterbox, output decoding, NMS)', { note: 'one per core', perHost: true }),
  EXECUTION_PROVIDERS: value(executionProviders, 'cpu', 'ordered list for GPU instances, e.g. tensorrt,cuda,cpu; the first that loads is used and logged'),
  INSTANCE_KIND: derived(
    oneOf(['cpu', 'gpu'] as const),
    '(gpu when EXECUTION_PROVIDERS names cuda, tensorrt or webgpu, else cpu)',
    "cpu | gpu: where a version's ONNX Runtime sessions run unless its model.json says",
    (get) => ((get('EXECUTION_PROVIDERS') as ExecutionProvider[]).some((p) => p !== 'cpu') ? 'gpu' : 'cpu'),
  ),
  INSTANCE_COUNT: unset(integer(1, 64), '(cpu: one per core, at most 4; gpu: two per GPU_DEVICES entry)', 'ONNX Runtime sessions per model version, each in its own thread'),
  GPU_DEVICES: value(integerList(0, 63), '0', 'comma list of GPU device ids that GPU instances use'),
  INTRA_OP_THREADS: unset(integer(1, 256), '(cores / CPU instances, at least 1)', 'ONNX Runtime threads per CPU session'),
  INSTANCE_RUNNER: value(
    oneOf(['auto', 'onnxruntime-node', 'native'] as const),
    'auto',
    "what drives each session: onnxruntime-node, or the native runner (ONNX Runtime's C API: CUDA options, pinned memory, I/O binding); auto: native for cuda, onnxruntime-node if it fails to load",
  ),
  CUDA_PROVIDER_OPTIONS: value(
    keyValueList,
    '',
    'comma list of key=value ONNX Runtime CUDA provider options the native runner sets, e.g. cudnn_conv_algo_search=HEURISTIC,use_tf32=0',
  ),
  PINNED_MEMORY: value(boolean, 'true', "true | false: the native runner's CUDA sessions copy inputs and outputs through page-locked host memory"),
  MAX_BATCH_SIZE: value(integer(1, 256), '1', 'largest batch the dynamic batcher forms (models with a batch axis); 1: every image runs alone'),
  MAX_QUEUE_DELAY_MS: value(integer(0, 1000), '2', 'longest a request waits for others to join its batch while an instance is idle'),
  INFERENCE_TIMEOUT_MS: value(integer(10, 3_600_000), '30000', 'longest one model run may take; past it the instance thread is stopped and its requests answered 500'),
  MAX_LOADED_VERSIONS: value(integer(1, 10_000), '16', 'model versions kept loaded; the least recently used are unloaded past it'),
  MODEL_MEMORY_BUDGET_MB: value(mebibytes(1, 1024 * 1024), '4096', 'model.onnx bytes x instances kept loaded; the least recently used are unloaded past it'),
  MODEL_LOADING: value(oneOf(['eager', 'lazy'] as const), 'eager', 'eager: load every version at start; lazy: versions already Active load on first use'),
  GRAPH_REWRITE: value(boolean, 'true', "true | false: run each version's graph rewritten to take uint8 pixels and give a dense head's candidates only (same answers)"),
  JPEG_DECODER: value(
    oneOf(['auto', 'libturbojpeg', 'sharp'] as const),
    'auto',
    'auto | libturbojpeg | sharp: which decoder JPEG images get (auto: libturbojpeg where the native addon has it, else the slower sharp); their pixels agree within 2 levels, so the choice is one of speed. libturbojpeg refuses to start without it',
  ),
  GPU_PRECISION: value(oneOf(['fp32', 'fp16'] as const), 'fp32', "fp32 | fp16: precision of GPU instances whose model.json sets none (fp16 converts the weights at load)"),
  MODEL_ISOLATION: value(
    oneOf(['stored', 'all', 'none'] as const),
    'stored',
    "stored: versions the server stores (uploads, npm run model -- add) run each instance in a child process under MODEL_INSTANCE_MEMORY_MB, MODELS_DIR's in the server's threads; all; none",
  ),
  MODEL_INSTANCE_MEMORY_MB: value(
    mebibytes(256, 1024 * 1024),
    '2048',
    "memory (RLIMIT_DATA) of an isolated version's instance process; past it the version is Failed and the server goes on",
  ),
  ISOLATED_MEMORY_MB: value(
    mebibytes(256, 1024 * 1024),
    String(Math.max(256, Math.floor(totalmem() / (2 * 1024 * 1024)))),
    'resident memory (VmRSS) all isolated instance processes may hold together, measured after each run; past it the least recently used idle versions are unloaded, and while requests in flight hold it others to isolated versions get 503',
    { note: "half the host's memory", perHost: true },
  ),
  ORGANIZATION_ISOLATED_MEMORY_MB: derived(
    mebibytes(256, 1024 * 1024),
    '(ISOLATED_MEMORY_MB / 2)',
    "the same for one organization's isolated instance processes (its own versions, public ones included): past it its least recently used idle versions are unloaded, then its requests to isolated versions get 503",
    (get) => Math.max(256 * 1024 * 1024, Math.floor((get('ISOLATED_MEMORY_MB') as number) / 2)),
  ),
  MODEL_VALIDATION_MEMORY_MB: value(
    mebibytes(256, 1024 * 1024),
    '2048',
    'memory (RLIMIT_DATA) of the process that loads and warms up a new model version first; past it the version is Failed',
  ),
  MODEL_VALIDATION_TIMEOUT_MS: value(
    integer(1000, 3_600_000),
    '60000',
    "longest a new model version's load and warm-up may take in that process; past it the version is Failed",
  ),
  ADMIN_EMAIL: value(lowerCase, 'admin@example.com', 'bootstrap admin, created on first start'),
  ADMIN_PASSWORD: unset(text, '(generated, printed once)', 'bootstrap admin password'),
  INFERENCE_API_KEY: unset(text, '(generated, printed once)', 'accepted as an inference key of the bootstrap organization'),
  MAX_IMAGE_BYTES: value(integer(1), '10485760', 'predict image size limit (10 MB = 10 MiB)'),
  MAX_IMAGE_PIXELS: value(integer(1), '40000000', 'decoded pixel limit (decompression-bomb guard)'),
  QUEUE_SIZE: derived(integer(1), '(WORKERS x 16)', 'requests in flight per model version', (get) => (get('WORKERS') as number) * 16),
  QUEUE_WAITING_ROOM: derived(
    integer(0),
    '(QUEUE_SIZE x 4)',
    'requests per model version held unread while the queue is full, before 503',
    (get) => (get('QUEUE_SIZE') as number) * 4,
  ),
  ORGANIZATION_QUEUE_SIZE: derived(
    integer(1),
    '((QUEUE_SIZE + QUEUE_WAITING_ROOM) x 2)',
    'predict requests one organization may have in flight or held, all its versions together, before 503',
    (get) => ((get('QUEUE_SIZE') as number) + (get('QUEUE_WAITING_ROOM') as number)) * 2,
  ),
  QUEUE_HOLD_MS: value(integer(0, 60_000), '5000', 'how long a held request waits for a queue place before 503'),
  MAX_BUFFERED_BYTES: value(integer(1024 * 1024), '268435456', 'request bodies held in memory at once across all requests before 503'),
  ORGANIZATION_BUFFERED_BYTES: derived(
    integer(1),
    '(MAX_BUFFERED_BYTES / 4)',
    "one organization's part of MAX_BUFFERED_BYTES (it may always have one body in memory)",
    (get) => Math.floor((get('MAX_BUFFERED_BYTES') as number) / 4),
  ),
  UNAUTHENTICATED_BUFFERED_BYTES: derived(
    integer(64 * 1024),
    '(MAX_BUFFERED_BYTES / 16, at most 16777216)',
    'bodies whose sender is not known, held at once: unauthenticated routes (login, signup…) and small bodies read while their caller is checked; kept apart from MAX_BUFFERED_BYTES',
    (get) => Math.min(16 * 1024 * 1024, Math.floor((get('MAX_BUFFERED_BYTES') as number) / 16)),
  ),
  UNAUTHENTICATED_BYTES_PER_ADDRESS: value(integer(1024), '65536', "one client address's part of UNAUTHENTICATED_BUFFERED_BYTES"),
  TRUST_PROXY: value(integer(0, 16), '0', 'reverse proxies in front of the server; the client address is read from their X-Forwarded-For entries'),
  MIN_UPLOAD_RATE: value(integer(0), '8192', 'bytes/s a request body must average after 5 s of reading, else 408 (0: off)'),
  METRICS_TOKEN: unset(text, '(none: /metrics answers this host only)', 'bearer token that /metrics requires from scrapers'),
  SHUTDOWN_TIMEOUT_MS: value(integer(0), '15000', 'how long SIGTERM waits for in-flight requests'),
  LOG_LEVEL: value(oneOf(LOG_LEVELS), 'info', 'debug | info | warn | error'),
  LOG_FORMAT: value(oneOf(LOG_FORMATS), 'text', 'text | json: one JSON object per line (time, level, msg, fields)'),
  ACCESS_LOG: value(boolean, 'false', 'true | false: one info line per request (method, path without query, status, ms, bytes, request id, client)'),
  RESPONSE_VALIDATION: value(boolean, 'false', 'true | false: check every success body against its declared schema; a mismatch is logged and answered 500 (for tests)'),
  CORS_ORIGINS: unset(corsOrigins, '(none: no CORS headers)', 'comma list of browser origins (https://app.example.com) allowed to call the APIs, or *'),
  TLS_CERT: unset(text, '(none: plain HTTP)', 'PEM certificate (chain) file; with TLS_KEY the ports speak HTTPS'),
  TLS_KEY: unset(text, '(none)', 'PEM private key file of TLS_CERT'),
  JWT_SECRET: unset(jwtSecret, '(generated once into DATA_DIR/jwt-secret)', 'HS256 signing secret of user tokens, at least 32 characters'),
  JWT_TTL_SECONDS: value(integer(60), '2592000', 'lifetime of user access tokens', { note: '30 days' }),
  SMTP_URL: unset(text, '(none: email stays in the outbox)', 'smtp://user:pass@host:port for outgoing email'),
  MAIL_FROM: value(text, 'sense@localhost', 'sender address of outgoing email'),
  PUBLIC_URL: derived(text, 'http://localhost:PORT', 'base URL used in links inside emails', (get) => `http://localhost:${get('PORT') as number}`),
  MAX_MODEL_BYTES: value(integer(1024), '536870912', 'largest model.onnx accepted by the upload API'),
  MODEL_STORE: value(
    oneOf(['postgres', 's3'] as const),
    'postgres',
    "where uploaded models' files are kept for every replica: postgres (1 MiB chunks in the database) or s3 (an S3-compatible bucket: the S3_ settings)",
  ),
  S3_ENDPOINT: unset(text, '(none)', 'MODEL_STORE=s3: the S3-compatible endpoint, e.g. https://s3.eu-central-1.amazonaws.com or http://minio:9000 (path-style requests)'),
  S3_BUCKET: unset(text, '(none)', 'MODEL_STORE=s3: the bucket, which must exist'),
  S3_REGION: value(text, 'us-east-1', 'MODEL_STORE=s3: the region requests are signed for'),
  S3_PREFIX: value(text, 'models/', "MODEL_STORE=s3: put before each object's key (<prefix><version id>/model.onnx)"),
  S3_ACCESS_KEY_ID: unset(text, '(none)', 'MODEL_STORE=s3: the access key id'),
  S3_SECRET_ACCESS_KEY: unset(text, '(none)', 'MODEL_STORE=s3: the secret access key (never logged)'),
  INGRESS_PORT: unset(integer(0, 65535), '(same as PORT)', 'serve the device ingestion API on its own port'),
  DEVICE_TOKEN_TTL_SECONDS: value(integer(60), '31536000', 'lifetime of device tokens from /v1/registration', { note: '1 year' }),
  DEVICE_EVENT_RATE: value(integer(1), '200', 'events per second a device may send (sustained) before 429'),
  DEVICE_EVENT_BURST: value(integer(1), '2000', 'events a device may send at once above its rate'),
  MAX_INGEST_BODY_BYTES: value(integer(1024), '4194304', 'largest ingestion request body (a batch)'),
  ACTION_RETRY_BASE_MS: value(integer(10), '1000', 'first retry delay of a failed rule action (doubles each time)'),
  RULE_EVALUATION_MS_PER_SECOND: value(
    integer(1, 1000),
    '100',
    "milliseconds per second of the event loop one organization's rules may take to evaluate, half a second's worth at once; past it, its events are stored with their rules left out (counted, logged)",
  ),
  EVENT_RETENTION_DAYS: value(integer(0, 36_500), '0', 'days ingested events are kept at least; older days are dropped whole, hourly (0: kept forever)'),
  KEPT_FRAMES_MAX_MB: value(
    integer(0, 16_777_216),
    '1024',
    "most megabytes (MiB) of camera frames one organization keeps (vision profiles with keepFrames, in the model store); past it, its oldest frames are removed (0: no frame is kept)",
  ),
  KEPT_FRAMES_ACCOUNT_MAX_MB: value(
    integer(0, 16_777_216),
    '4096',
    'most megabytes (MiB) of camera frames the organizations one account (the user who created them) keep together; past it, its oldest frames are removed (0: no frame is kept)',
  ),
  KEPT_FRAMES_TOTAL_MAX_MB: value(
    integer(0, 16_777_216),
    '16384',
    'most megabytes (MiB) of camera frames kept in all, every organization together (size the disk or bucket for it); past it, the accounts keeping the most lose their oldest frames first (0: no frame is kept)',
  ),
  EVENT_STREAM_POLL_MS: value(
    integer(100, 60_000),
    '1000',
    'how often each server reads new events for the live event streams (GET /v2/events/stream): one query per organization with streams open on it, none without',
  ),
  EVENT_STREAMS_PER_ORGANIZATION: value(integer(1, 100_000), '20', 'live event streams one organization may have open on one server before 429'),
  EVENT_STREAMS_PER_SERVER: value(integer(1, 1_000_000), '1000', 'live event streams one server may have open, all organizations together, before 429'),
  EVENT_STREAM_BUFFER_BYTES: value(
    integer(1024, 1024 * 1024 * 1024),
    '1048576',
    'bytes of events one live stream may hold for a client that reads too slowly; past it the client is dropped',
  ),
  MAP_TILE_URL: unset(
    tileTemplate,
    '(none: the maps are a grid of latitude and longitude)',
    "tile URL template the console's maps lay under landmarks and devices, e.g. https://tile.openstreetmap.org/{z}/{x}/{y}.png; each user may set their own on the Landmarks page",
  ),
  WEBHOOK_ALLOWED_HOSTS: unset(
    allowedHosts,
    '(none: internal addresses are refused)',
    'comma list of host names, IP addresses and CIDR ranges rule webhooks may reach although internal (loopback, private, link-local...)',
  ),
  SECRETS_KEY: unset(
    secretsKey,
    '(generated once into DATA_DIR/secrets-key)',
    '32 bytes in base64 (openssl rand -base64 32): the AES-256-GCM key of stored webhook secrets; set the same on every server of a database',
  ),
};

type SettingName = keyof typeof SPECS;
type SettingValue<K extends SettingName> = (typeof SPECS)[K] extends Spec<infer T> ? T : never;

function named<K extends SettingName>(name: K): Setting<SettingValue<K>> {
  const spec = SPECS[name] as Spec<SettingValue<K>>;
  const raw = (env: Env) => rawOf(env, name, spec.kind, spec.default);
  return {
    name,
    help: spec.help,
    default: spec.default,
    shown: spec.shown,
    documented: spec.documented,
    raw,
    read(env) {
      const text = raw(env);
      if (text !== undefined) return spec.kind.parse(text, name) as SettingValue<K>;
      return spec.derive?.((other) => BY_NAME.get(other)!.read(env)) as SettingValue<K>;
    },
  };
}

/** Every environment variable the server reads, in the order --help prints them. */
export const SETTINGS: readonly Setting[] = (Object.keys(SPECS) as SettingName[]).map(named);

const BY_NAME = new Map(SETTINGS.map((s) => [s.name, s]));

/** A setting's value from `env`, else its default. */
function read<K extends SettingName>(env: Env, name: K): SettingValue<K> {
  return BY_NAME.get(name)!.read(env) as SettingValue<K>;
}

/**
 * Both files or neither, readable, and a certificate and key that belong
 * together: uWS would otherwise start without TLS or refuse every handshake
 * without saying why.
 */
function tlsFiles(certFile: string | undefined, keyFile: string | undefined): TlsFiles | undefined {
  if (certFile === undefined && keyFile === undefined) return undefined;
  if (certFile === undefined || keyFile === undefined) {
    throw new ConfigError(`TLS_CERT and TLS_KEY go together: ${certFile === undefined ? 'TLS_KEY' : 'TLS_CERT'} is set, ${certFile === undefined ? 'TLS_CERT' : 'TLS_KEY'} is not`);
  }
  const readPem = (name: string, file: string) => {
    try {
      return readFileSync(file, 'utf8');
    } catch (error) {
      throw new ConfigError(`${name} cannot be read: ${(error as Error).message}`);
    }
  };
  const cert = readPem('TLS_CERT', certFile);
  const key = readPem('TLS_KEY', keyFile);
  try {
    createSecureContext({ cert, key });
  } catch (error) {
    throw new ConfigError(`TLS_CERT (${certFile}) and TLS_KEY (${keyFile}) are not a PEM certificate and its private key: ${(error as Error).message}`);
  }
  return { certFile: resolve(certFile), keyFile: resolve(keyFile) };
}

type ModelStoreConfig =
  | { kind: 'postgres' }
  | { kind: 's3'; endpoint: string; bucket: string; region: string; prefix: string; accessKeyId: string; secretAccessKey: string };

/** MODEL_STORE with its S3 settings, all of them there when it is s3. */
function modelStoreOf(get: <K extends SettingName>(name: K) => SettingValue<K>): ModelStoreConfig {
  if (get('MODEL_STORE') === 'postgres') return { kind: 'postgres' };
  const endpoint = get('S3_ENDPOINT');
  const bucket = get('S3_BUCKET');
  const accessKeyId = get('S3_ACCESS_KEY_ID');
  const secretAccessKey = get('S3_SECRET_ACCESS_KEY');
  const missing = Object.entries({ S3_ENDPOINT: endpoint, S3_BUCKET: bucket, S3_ACCESS_KEY_ID: accessKeyId, S3_SECRET_ACCESS_KEY: secretAccessKey })
    .filter(([, v]) => v === undefined)
    .map(([k]) => k);
  if (missing.length) throw new ConfigError(`MODEL_STORE=s3 needs ${missing.join(', ')}`);
  if (!/^https?:\/\/[^/]+/.test(endpoint!)) throw new ConfigError(`S3_ENDPOINT must be an http(s) URL, got "${endpoint}"`);
  return { kind: 's3', endpoint: endpoint!, bucket: bucket!, region: get('S3_REGION'), prefix: get('S3_PREFIX'), accessKeyId: accessKeyId!, secretAccessKey: secretAccessKey! };
}

/** A separate ingestion port, or undefined when it is the main port. */
function ingressPort(port: number, ingress: number | undefined): number | undefined {
  return ingress === port && ingress !== 0 ? undefined : ingress;
}

export function loadConfig(env: Env = process.env): Config {
  const get = <K extends SettingName>(name: K) => read(env, name);
  const port = get('PORT');
  return {
    port,
    host: get('HOST'),
    databaseUrl: get('DATABASE_URL'),
    dataDir: get('DATA_DIR'),
    modelsDir: get('MODELS_DIR'),
    workers: get('WORKERS'),
    instances: {
      kind: get('INSTANCE_KIND'),
      count: get('INSTANCE_COUNT'),
      gpuDevices: get('GPU_DEVICES'),
      intraOpThreads: get('INTRA_OP_THREADS'),
      runner: get('INSTANCE_RUNNER'),
      cudaOptions: get('CUDA_PROVIDER_OPTIONS'),
      pinnedMemory: get('PINNED_MEMORY'),
    },
    batching: {
      maxBatchSize: get('MAX_BATCH_SIZE'),
      maxQueueDelayMs: get('MAX_QUEUE_DELAY_MS'),
      runTimeoutMs: get('INFERENCE_TIMEOUT_MS'),
    },
    maxLoadedVersions: get('MAX_LOADED_VERSIONS'),
    modelMemoryBudgetBytes: get('MODEL_MEMORY_BUDGET_MB'),
    modelLoading: get('MODEL_LOADING'),
    graphRewrite: get('GRAPH_REWRITE'),
    gpuPrecision: get('GPU_PRECISION'),
    modelIsolation: get('MODEL_ISOLATION'),
    instanceMemoryBytes: get('MODEL_INSTANCE_MEMORY_MB'),
    isolatedMemoryBytes: get('ISOLATED_MEMORY_MB'),
    organizationIsolatedMemoryBytes: get('ORGANIZATION_ISOLATED_MEMORY_MB'),
    modelValidation: {
      memoryBytes: get('MODEL_VALIDATION_MEMORY_MB'),
      timeoutMs: get('MODEL_VALIDATION_TIMEOUT_MS'),
    },
    executionProviders: get('EXECUTION_PROVIDERS'),
    adminEmail: get('ADMIN_EMAIL'),
    adminPassword: get('ADMIN_PASSWORD'),
    inferenceApiKey: get('INFERENCE_API_KEY'),
    maxImageBytes: get('MAX_IMAGE_BYTES'),
    maxImagePixels: get('MAX_IMAGE_PIXELS'),
    jpegDecoder: get('JPEG_DECODER'),
    queueSize: get('QUEUE_SIZE'),
    queueWaitingRoom: get('QUEUE_WAITING_ROOM'),
    queueHoldMs: get('QUEUE_HOLD_MS'),
    organizationQueueSize: get('ORGANIZATION_QUEUE_SIZE'),
    maxBufferedBytes: get('MAX_BUFFERED_BYTES'),
    organizationBufferedBytes: get('ORGANIZATION_BUFFERED_BYTES'),
    unauthenticatedBufferedBytes: get('UNAUTHENTICATED_BUFFERED_BYTES'),
    unauthenticatedBytesPerAddress: get('UNAUTHENTICATED_BYTES_PER_ADDRESS'),
    trustedProxies: get('TRUST_PROXY'),
    metricsToken: get('METRICS_TOKEN'),
    minUploadRate: get('MIN_UPLOAD_RATE'),
    shutdownTimeoutMs: get('SHUTDOWN_TIMEOUT_MS'),
    logLevel: get('LOG_LEVEL'),
    logFormat: get('LOG_FORMAT'),
    accessLog: get('ACCESS_LOG'),
    responseValidation: get('RESPONSE_VALIDATION'),
    corsOrigins: get('CORS_ORIGINS') ?? [],
    tls: tlsFiles(get('TLS_CERT'), get('TLS_KEY')),
    jwtSecret: get('JWT_SECRET'),
    jwtTtlSeconds: get('JWT_TTL_SECONDS'),
    smtpUrl: get('SMTP_URL'),
    mailFrom: get('MAIL_FROM'),
    publicUrl: get('PUBLIC_URL').replace(/\/+$/, ''),
    maxModelBytes: get('MAX_MODEL_BYTES'),
    modelStore: modelStoreOf(get),
    ingressPort: ingressPort(port, get('INGRESS_PORT')),
    deviceTokenTtlSeconds: get('DEVICE_TOKEN_TTL_SECONDS'),
    deviceEventRate: get('DEVICE_EVENT_RATE'),
    deviceEventBurst: get('DEVICE_EVENT_BURST'),
    maxIngestBodyBytes: get('MAX_INGEST_BODY_BYTES'),
    actionRetryBaseMs: get('ACTION_RETRY_BASE_MS'),
    ruleEvaluationMsPerSecond: get('RULE_EVALUATION_MS_PER_SECOND'),
    eventRetentionDays: get('EVENT_RETENTION_DAYS'),
    keptFramesMaxBytes: get('KEPT_FRAMES_MAX_MB') * 1024 * 1024,
    keptFramesAccountMaxBytes: get('KEPT_FRAMES_ACCOUNT_MAX_MB') * 1024 * 1024,
    keptFramesTotalMaxBytes: get('KEPT_FRAMES_TOTAL_MAX_MB') * 1024 * 1024,
    eventStreams: {
      pollMs: get('EVENT_STREAM_POLL_MS'),
      perOrganization: get('EVENT_STREAMS_PER_ORGANIZATION'),
      perServer: get('EVENT_STREAMS_PER_SERVER'),
      bufferBytes: get('EVENT_STREAM_BUFFER_BYTES'),
    },
    webhookAllowedHosts: get('WEBHOOK_ALLOWED_HOSTS') ?? [],
    mapTileUrl: get('MAP_TILE_URL'),
    secretsKey: get('SECRETS_KEY'),
  };
}

export function helpText(): string {
  const width = Math.max(...SETTINGS.map((s) => s.name.length));
  const lines = SETTINGS.map((s) => `  ${s.name.padEnd(width)}  ${s.help} [default: ${s.shown}]`);
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
