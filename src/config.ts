// The one place configuration is read. Every setting comes from the
// environment, has a documented default, and is validated at start-up so a
// typo fails fast with a clear message instead of misbehaving later.
//
// Each setting is written once, in TABLE below: its place in Config, its
// environment variable, how it is parsed, its default and its help. The
// Config type, loadConfig, --help and SETTINGS (which docs/OPERATIONS.md's
// table is checked against) are all derived from that table.
import { readFileSync } from 'node:fs';
import { availableParallelism, hostname, totalmem } from 'node:os';
import { resolve } from 'node:path';
import { createSecureContext } from 'node:tls';
import { parseAllowList } from './lib/ip-ranges.js';
import { decodeSecretsKey } from './lib/secrets-key.js';

export const EXECUTION_PROVIDERS = ['tensorrt', 'cuda', 'webgpu', 'cpu'] as const;
export type ExecutionProvider = (typeof EXECUTION_PROVIDERS)[number];

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
  /** where its value is in Config, e.g. ['instances', 'kind'] (made into another by `adjusted`, or with others by `combined`) */
  readonly path: readonly string[];
}

/** Reads a setting by name (its value, or its default, worked out too): what a derived default is computed from. */
type Lookup = (name: string) => unknown;

/** A leaf of TABLE: one setting, and the value it gives its place in Config. */
class Field<T> {
  constructor(
    readonly setting: Omit<Setting, 'path'>,
    /** the value Config holds: the setting's, or made from it (`adjusted`) */
    readonly load: (env: Env) => T,
  ) {}
}

/** Settings that make one value of Config together, checked together (TLS_CERT and TLS_KEY, MODEL_STORE and its S3_ settings). */
class Combined<T> {
  constructor(
    readonly parts: Table,
    readonly combine: (parts: never) => T,
  ) {}
}

interface Table {
  readonly [key: string]: Field<unknown> | Combined<unknown> | Table;
}

/** The value a table, or one of its entries, loads to: Config is `Loaded<typeof TABLE>`. */
type Loaded<T> =
  T extends Field<infer V> ? V : T extends Combined<infer V> ? V : { -readonly [K in keyof T]: Loaded<T[K]> };

function rawOf(env: Env, name: string, kind: Kind<unknown>, fallback: string | undefined): string | undefined {
  const raw = env[name];
  const unset = raw === undefined || raw === '' || (kind.blankIsUnset === true && raw.trim() === '');
  return unset ? fallback : raw;
}

/** A setting as value, derived and unset declare it, before field() names it. */
interface Spec<T> {
  kind: Kind<unknown>;
  default: string | undefined;
  shown: string;
  documented: string;
  help: string;
  derive?: (get: Lookup) => T;
}

/** The setting `name` as `spec` declares it, and the field that holds its value. */
function field<T>(name: string, spec: Spec<T>): Field<T> {
  const raw = (env: Env) => rawOf(env, name, spec.kind, spec.default);
  const read = (env: Env): T => {
    const text = raw(env);
    if (text !== undefined) return spec.kind.parse(text, name) as T;
    return spec.derive?.((other) => settingNamed(other).read(env)) as T;
  };
  return new Field<T>(
    { name, help: spec.help, default: spec.default, shown: spec.shown, documented: spec.documented, raw, read },
    read,
  );
}

/** A setting whose default is a value (`note` glosses it; `perHost`: it depends on the machine, so docs/OPERATIONS.md gives the note only). */
function value<T>(
  name: string,
  kind: Kind<T>,
  defaultValue: string,
  help: string,
  options: { note?: string; perHost?: boolean } = {},
): Field<T> {
  const shown = options.note === undefined ? defaultValue : `${defaultValue} (${options.note})`;
  return field(name, {
    kind,
    default: defaultValue,
    shown,
    documented: options.perHost ? `(${options.note})` : shown,
    help,
  });
}

/**
 * A setting whose default is worked out from others when it is unset:
 * `shown` says how, for --help and docs/OPERATIONS.md, and `derive` does it, side by side.
 */
function derived<T>(name: string, kind: Kind<T>, shown: string, help: string, derive: (get: Lookup) => T): Field<T> {
  return field(name, { kind, default: undefined, shown, documented: shown, help, derive });
}

/** A setting with no default value: unset, it is undefined and `shown` says what happens then. */
function unset<T>(name: string, kind: Kind<T>, shown: string, help: string): Field<T | undefined> {
  return field<T | undefined>(name, { kind, default: undefined, shown, documented: shown, help });
}

/** A setting whose value Config holds made into another (a fallback, a trailing slash dropped); `get` reads other settings. */
function adjusted<T, U>(source: Field<T>, to: (value: T, get: Lookup) => U): Field<U> {
  return new Field(source.setting, (env) => to(source.load(env), (other) => settingNamed(other).read(env)));
}

/** Settings whose values `combine` makes into one (loaded first, each as its field says). */
function combined<P extends Table, T>(parts: P, combine: (values: Loaded<P>) => T): Combined<T> {
  return new Combined(parts, combine as (parts: never) => T);
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
      throw new ConfigError(
        `${name} must be an http(s) URL template with {z}, {x} and {y}, e.g. https://tile.openstreetmap.org/{z}/{x}/{y}.png, got "${raw}"`,
      );
    }
    return value;
  },
};
/** An MQTT broker's URL: mqtt:// or mqtts://, a host, no credentials (MQTT_BROKER_USERNAME/PASSWORD hold them). */
const brokerUrl: Kind<string> = {
  parse(raw, name) {
    let url: URL | undefined;
    try {
      url = new URL(raw.trim());
    } catch {
      url = undefined;
    }
    if (!url || (url.protocol !== 'mqtt:' && url.protocol !== 'mqtts:') || url.hostname === '')
      throw new ConfigError(`${name} must be an mqtt:// or mqtts:// URL such as mqtt://broker:1883, got "${raw}"`);
    if (url.username !== '' || url.password !== '')
      throw new ConfigError(`${name} takes no credentials: set MQTT_BROKER_USERNAME and MQTT_BROKER_PASSWORD`);
    return raw.trim();
  },
};

/** A shared subscription's group: one topic level, no wildcard (MQTT 5, 4.8.2). */
const shareGroup: Kind<string> = {
  parse(raw, name) {
    if (!/^[^/+#\s]+$/.test(raw)) throw new ConfigError(`${name} must be one word without /, + or #, got "${raw}"`);
    return raw;
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
    for (const part of raw
      .split(',')
      .map((p) => p.trim())
      .filter((p) => p !== '')) {
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
    const origins = raw
      .split(',')
      .map((o) => o.trim().toLowerCase().replace(/\/+$/, ''))
      .filter((o) => o !== '');
    if (origins.includes('*')) {
      if (origins.length > 1) throw new ConfigError(`${name} is either * or a list of origins, got "${raw}"`);
      return origins;
    }
    for (const origin of origins) {
      if (!/^https?:\/\/[a-z0-9.-]+(:\d{1,5})?$|^https?:\/\/\[[0-9a-f:.]+\](:\d{1,5})?$/.test(origin)) {
        throw new ConfigError(
          `${name} entries must be origins like https://app.example.com (scheme, host, optional port, no path), got "${origin}"`,
        );
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
    const entries = raw
      .split(',')
      .map((e) => e.trim().toLowerCase())
      .filter((e) => e !== '');
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
 * them, each at its place in Config: its name, parsing, default and help
 * are written here once, and Config, loadConfig, --help and the table of
 * docs/OPERATIONS.md (a test compares) all take them from here.
 */
const TABLE = {
  port: value('PORT', integer(0, 65535), '8080', 'HTTP port of the inference and management APIs'),
  host: value('HOST', text, '0.0.0.0', 'address to listen on'),
  databaseUrl: unset(
    'DATABASE_URL',
    text,
    '(embedded)',
    'PostgreSQL URL; without it an embedded PostgreSQL runs in DATA_DIR/postgres',
  ),
  dataDir: value('DATA_DIR', path, './data', 'embedded database, uploaded models, generated secrets'),
  modelsDir: value('MODELS_DIR', path, './models', 'model directories registered at first start'),
  workers: value(
    'WORKERS',
    integer(1, 256),
    String(cores),
    'preprocessing worker threads (decode, letterbox, output decoding, NMS)',
    { note: 'one per core', perHost: true },
  ),
  executionProviders: value(
    'EXECUTION_PROVIDERS',
    executionProviders,
    'cpu',
    'ordered list for GPU instances, e.g. tensorrt,cuda,cpu; the first that loads is used and logged',
  ),
  /** Server-wide defaults of a version's backend instances (model.json may override each). */
  instances: {
    kind: derived(
      'INSTANCE_KIND',
      oneOf(['cpu', 'gpu'] as const),
      '(gpu when EXECUTION_PROVIDERS names cuda, tensorrt or webgpu, else cpu)',
      "cpu | gpu: where a version's ONNX Runtime sessions run unless its model.json says",
      (get) => ((get('EXECUTION_PROVIDERS') as ExecutionProvider[]).some((p) => p !== 'cpu') ? 'gpu' : 'cpu'),
    ),
    /** instances per version; undefined: the kind's own default (see defaultInstanceCount) */
    count: unset(
      'INSTANCE_COUNT',
      integer(1, 64),
      '(cpu: one per core, at most 4; gpu: two per GPU_DEVICES entry)',
      'ONNX Runtime sessions per model version, each in its own thread',
    ),
    /** GPU device ids, one instance each by default */
    gpuDevices: value('GPU_DEVICES', integerList(0, 63), '0', 'comma list of GPU device ids that GPU instances use'),
    /** ONNX Runtime threads per CPU session; undefined: cores / instances */
    intraOpThreads: unset(
      'INTRA_OP_THREADS',
      integer(1, 256),
      '(cores / CPU instances, at least 1)',
      'ONNX Runtime threads per CPU session',
    ),
    runner: value(
      'INSTANCE_RUNNER',
      oneOf(['auto', 'onnxruntime-node', 'native'] as const),
      'auto',
      "what drives each session: onnxruntime-node, or the native runner (ONNX Runtime's C API: CUDA options, pinned memory, I/O binding); auto: native for cuda, onnxruntime-node if it fails to load",
    ),
    cudaOptions: value(
      'CUDA_PROVIDER_OPTIONS',
      keyValueList,
      '',
      'comma list of key=value ONNX Runtime CUDA provider options the native runner sets, e.g. cudnn_conv_algo_search=HEURISTIC,use_tf32=0',
    ),
    pinnedMemory: value(
      'PINNED_MEMORY',
      boolean,
      'true',
      "true | false: the native runner's CUDA sessions copy inputs and outputs through page-locked host memory",
    ),
  },
  batching: {
    /** model.json's batching.maxBatchSize overrides it (see maxBatchSizeOf) */
    maxBatchSize: value(
      'MAX_BATCH_SIZE',
      integer(1, 256),
      '1',
      'largest batch the dynamic batcher forms (models with a batch axis); 1: every image runs alone',
    ),
    maxQueueDelayMs: value(
      'MAX_QUEUE_DELAY_MS',
      integer(0, 1000),
      '2',
      'longest a request waits for others to join its batch while an instance is idle',
    ),
    /** a batch still running after this long has its instance thread stopped */
    runTimeoutMs: value(
      'INFERENCE_TIMEOUT_MS',
      integer(10, 3_600_000),
      '30000',
      'longest one model run may take; past it the instance thread is stopped and its requests answered 500',
    ),
  },
  maxLoadedVersions: value(
    'MAX_LOADED_VERSIONS',
    integer(1, 10_000),
    '16',
    'model versions kept loaded; the least recently used are unloaded past it',
  ),
  modelMemoryBudgetBytes: value(
    'MODEL_MEMORY_BUDGET_MB',
    mebibytes(1, 1024 * 1024),
    '4096',
    'model.onnx bytes x instances kept loaded; the least recently used are unloaded past it',
  ),
  modelLoading: value(
    'MODEL_LOADING',
    oneOf(['eager', 'lazy'] as const),
    'eager',
    'eager: load every version at start; lazy: versions already Active load on first use',
  ),
  /** versions run rewritten: uint8 pixels in, a dense head's candidates out (inference/instances/prepared-model.ts) */
  graphRewrite: value(
    'GRAPH_REWRITE',
    boolean,
    'true',
    "true | false: run each version's graph rewritten to take uint8 pixels and give a dense head's candidates only (same answers)",
  ),
  jpegDecoder: value(
    'JPEG_DECODER',
    oneOf(['auto', 'libturbojpeg', 'sharp'] as const),
    'auto',
    'auto | libturbojpeg | sharp: which decoder JPEG images get (auto: libturbojpeg where the native addon has it, else the slower sharp); their pixels agree within 2 levels, so the choice is one of speed. libturbojpeg refuses to start without it',
  ),
  gpuPrecision: value(
    'GPU_PRECISION',
    oneOf(['fp32', 'fp16'] as const),
    'fp32',
    'fp32 | fp16: precision of GPU instances whose model.json sets none (fp16 converts the weights at load)',
  ),
  modelIsolation: value(
    'MODEL_ISOLATION',
    oneOf(['stored', 'all', 'none'] as const),
    'stored',
    "stored: versions the server stores (uploads, npm run model -- add) run each instance in a child process under MODEL_INSTANCE_MEMORY_MB, MODELS_DIR's in the server's threads; all; none",
  ),
  /** RLIMIT_DATA of an isolated version's instance process */
  instanceMemoryBytes: value(
    'MODEL_INSTANCE_MEMORY_MB',
    mebibytes(256, 1024 * 1024),
    '2048',
    "memory (RLIMIT_DATA) of an isolated version's instance process; past it the version is Failed and the server goes on",
  ),
  isolatedMemoryBytes: value(
    'ISOLATED_MEMORY_MB',
    mebibytes(256, 1024 * 1024),
    String(Math.max(256, Math.floor(totalmem() / (2 * 1024 * 1024)))),
    'resident memory (VmRSS) all isolated instance processes may hold together, measured after each run; past it the least recently used idle versions are unloaded, and while requests in flight hold it others to isolated versions get 503',
    { note: "half the host's memory", perHost: true },
  ),
  organizationIsolatedMemoryBytes: derived(
    'ORGANIZATION_ISOLATED_MEMORY_MB',
    mebibytes(256, 1024 * 1024),
    '(ISOLATED_MEMORY_MB / 2)',
    "the same for one organization's isolated instance processes (its own versions, public ones included): past it its least recently used idle versions are unloaded, then its requests to isolated versions get 503",
    (get) => Math.max(256 * 1024 * 1024, Math.floor((get('ISOLATED_MEMORY_MB') as number) / 2)),
  ),
  /** limits of the process that loads and warms up a new model version before the server does */
  modelValidation: {
    memoryBytes: value(
      'MODEL_VALIDATION_MEMORY_MB',
      mebibytes(256, 1024 * 1024),
      '2048',
      'memory (RLIMIT_DATA) of the process that loads and warms up a new model version first; past it the version is Failed',
    ),
    timeoutMs: value(
      'MODEL_VALIDATION_TIMEOUT_MS',
      integer(1000, 3_600_000),
      '60000',
      "longest a new model version's load and warm-up may take in that process; past it the version is Failed",
    ),
  },
  adminEmail: value('ADMIN_EMAIL', lowerCase, 'admin@example.com', 'bootstrap admin, created on first start'),
  adminPassword: unset('ADMIN_PASSWORD', text, '(generated, printed once)', 'bootstrap admin password'),
  inferenceApiKey: unset(
    'INFERENCE_API_KEY',
    text,
    '(generated, printed once)',
    'accepted as an inference key of the bootstrap organization',
  ),
  maxImageBytes: value('MAX_IMAGE_BYTES', integer(1), '10485760', 'predict image size limit (10 MB = 10 MiB)'),
  maxImagePixels: value('MAX_IMAGE_PIXELS', integer(1), '40000000', 'decoded pixel limit (decompression-bomb guard)'),
  keptImagesBytes: value(
    'KEPT_IMAGES_MEMORY_MB',
    mebibytes(1, 1024 * 1024),
    '1024',
    "decoded images the requests to versions with child stages keep at once, at their own size, until their crops are cut; past it a request's stages do not run (its children empty, X-Children-Skipped saying why)",
  ),
  organizationKeptImagesBytes: derived(
    'ORGANIZATION_KEPT_IMAGES_MEMORY_MB',
    mebibytes(1, 1024 * 1024),
    '(KEPT_IMAGES_MEMORY_MB / 2)',
    "the same for one organization's requests (one image alone is always taken, up to KEPT_IMAGES_MEMORY_MB)",
    (get) => Math.max(1024 * 1024, Math.floor((get('KEPT_IMAGES_MEMORY_MB') as number) / 2)),
  ),
  queueSize: derived(
    'QUEUE_SIZE',
    integer(1),
    '(WORKERS x 16)',
    'requests in flight per model version',
    (get) => (get('WORKERS') as number) * 16,
  ),
  queueWaitingRoom: derived(
    'QUEUE_WAITING_ROOM',
    integer(0),
    '(QUEUE_SIZE x 4)',
    'requests per model version held unread while the queue is full, before 503',
    (get) => (get('QUEUE_SIZE') as number) * 4,
  ),
  organizationQueueSize: derived(
    'ORGANIZATION_QUEUE_SIZE',
    integer(1),
    '((QUEUE_SIZE + QUEUE_WAITING_ROOM) x 2)',
    'predict requests one organization may have in flight or held, all its versions together, before 503',
    (get) => ((get('QUEUE_SIZE') as number) + (get('QUEUE_WAITING_ROOM') as number)) * 2,
  ),
  queueHoldMs: value(
    'QUEUE_HOLD_MS',
    integer(0, 60_000),
    '5000',
    'how long a held request waits for a queue place before 503',
  ),
  maxBufferedBytes: value(
    'MAX_BUFFERED_BYTES',
    integer(1024 * 1024),
    '268435456',
    'request bodies held in memory at once across all requests before 503',
  ),
  organizationBufferedBytes: derived(
    'ORGANIZATION_BUFFERED_BYTES',
    integer(1),
    '(MAX_BUFFERED_BYTES / 4)',
    "one organization's part of MAX_BUFFERED_BYTES (it may always have one body in memory)",
    (get) => Math.floor((get('MAX_BUFFERED_BYTES') as number) / 4),
  ),
  unauthenticatedBufferedBytes: derived(
    'UNAUTHENTICATED_BUFFERED_BYTES',
    integer(64 * 1024),
    '(MAX_BUFFERED_BYTES / 16, at most 16777216)',
    'bodies whose sender is not known, held at once: unauthenticated routes (login, signup…) and small bodies read while their caller is checked; kept apart from MAX_BUFFERED_BYTES',
    (get) => Math.min(16 * 1024 * 1024, Math.floor((get('MAX_BUFFERED_BYTES') as number) / 16)),
  ),
  unauthenticatedBytesPerAddress: value(
    'UNAUTHENTICATED_BYTES_PER_ADDRESS',
    integer(1024),
    '65536',
    "one client address's part of UNAUTHENTICATED_BUFFERED_BYTES",
  ),
  trustedProxies: value(
    'TRUST_PROXY',
    integer(0, 16),
    '0',
    'reverse proxies in front of the server; the client address is read from their X-Forwarded-For entries',
  ),
  minUploadRate: value(
    'MIN_UPLOAD_RATE',
    integer(0),
    '8192',
    'bytes/s a request body must average after 5 s of reading, else 408 (0: off)',
  ),
  metricsToken: unset(
    'METRICS_TOKEN',
    text,
    '(none: /metrics answers this host only)',
    'bearer token that /metrics requires from scrapers',
  ),
  shutdownTimeoutMs: value('SHUTDOWN_TIMEOUT_MS', integer(0), '15000', 'how long SIGTERM waits for in-flight requests'),
  logLevel: value('LOG_LEVEL', oneOf(LOG_LEVELS), 'info', 'debug | info | warn | error'),
  logFormat: value(
    'LOG_FORMAT',
    oneOf(LOG_FORMATS),
    'text',
    'text | json: one JSON object per line (time, level, msg, fields)',
  ),
  accessLog: value(
    'ACCESS_LOG',
    boolean,
    'false',
    'true | false: one info line per request (method, path without query, status, ms, bytes, request id, client)',
  ),
  /** check every /v2 success body against its declared response schema (a mismatch: logged 500) */
  responseValidation: value(
    'RESPONSE_VALIDATION',
    boolean,
    'false',
    'true | false: check every success body against its declared schema; a mismatch is logged and answered 500 (for tests)',
  ),
  /** allowed browser origins; ['*'] for any, [] for no CORS headers at all */
  corsOrigins: adjusted(
    unset(
      'CORS_ORIGINS',
      corsOrigins,
      '(none: no CORS headers)',
      'comma list of browser origins (https://app.example.com) allowed to call the APIs, or *',
    ),
    (origins) => origins ?? [],
  ),
  /** HTTPS on the listening ports; undefined for plain HTTP */
  tls: combined(
    {
      certFile: unset(
        'TLS_CERT',
        text,
        '(none: plain HTTP)',
        'PEM certificate (chain) file; with TLS_KEY the ports speak HTTPS',
      ),
      keyFile: unset('TLS_KEY', text, '(none)', 'PEM private key file of TLS_CERT'),
    },
    ({ certFile, keyFile }) => tlsFiles(certFile, keyFile),
  ),
  jwtSecret: unset(
    'JWT_SECRET',
    jwtSecret,
    '(generated once into DATA_DIR/jwt-secret)',
    'HS256 signing secret of user tokens, at least 32 characters',
  ),
  jwtTtlSeconds: value('JWT_TTL_SECONDS', integer(60), '2592000', 'lifetime of user access tokens', {
    note: '30 days',
  }),
  smtpUrl: unset(
    'SMTP_URL',
    text,
    '(none: email stays in the outbox)',
    'smtp://user:pass@host:port for outgoing email',
  ),
  mailFrom: value('MAIL_FROM', text, 'sense@localhost', 'sender address of outgoing email'),
  publicUrl: adjusted(
    derived(
      'PUBLIC_URL',
      text,
      'http://localhost:PORT',
      'base URL used in links inside emails',
      (get) => `http://localhost:${get('PORT') as number}`,
    ),
    (url) => url.replace(/\/+$/, ''),
  ),
  maxModelBytes: value('MAX_MODEL_BYTES', integer(1024), '536870912', 'largest model.onnx accepted by the upload API'),
  /** where uploaded models' files are kept for every replica */
  modelStore: combined(
    {
      kind: value(
        'MODEL_STORE',
        oneOf(['postgres', 's3'] as const),
        'postgres',
        "where uploaded models' files are kept for every replica: postgres (1 MiB chunks in the database) or s3 (an S3-compatible bucket: the S3_ settings)",
      ),
      endpoint: unset(
        'S3_ENDPOINT',
        text,
        '(none)',
        'MODEL_STORE=s3: the S3-compatible endpoint, e.g. https://s3.eu-central-1.amazonaws.com or http://minio:9000 (path-style requests)',
      ),
      bucket: unset('S3_BUCKET', text, '(none)', 'MODEL_STORE=s3: the bucket, which must exist'),
      region: value('S3_REGION', text, 'us-east-1', 'MODEL_STORE=s3: the region requests are signed for'),
      prefix: value(
        'S3_PREFIX',
        text,
        'models/',
        "MODEL_STORE=s3: put before each object's key (<prefix><version id>/model.onnx)",
      ),
      accessKeyId: unset('S3_ACCESS_KEY_ID', text, '(none)', 'MODEL_STORE=s3: the access key id'),
      secretAccessKey: unset(
        'S3_SECRET_ACCESS_KEY',
        text,
        '(none)',
        'MODEL_STORE=s3: the secret access key (never logged)',
      ),
    },
    modelStoreOf,
  ),
  /** a separate ingestion port, or undefined when it is the main port */
  ingressPort: adjusted(
    unset('INGRESS_PORT', integer(0, 65535), '(same as PORT)', 'serve the device ingestion API on its own port'),
    (ingress, get) => (ingress === get('PORT') && ingress !== 0 ? undefined : ingress),
  ),
  /** the Open Inference Protocol's listeners (KServe v2, Triton's ports); 0: off */
  oip: {
    httpPort: value(
      'OIP_HTTP_PORT',
      integer(0, 65535),
      '8000',
      "port of the Open Inference Protocol's REST API (KServe v2, Triton's /v2/models/…/infer); 0: not served",
    ),
    grpcPort: value(
      'OIP_GRPC_PORT',
      integer(0, 65535),
      '8001',
      "port of the Open Inference Protocol's gRPC service (inference.GRPCInferenceService); 0: not served",
    ),
  },
  /** the MQTT listener of devices (src/mqtt/): its ports and limits */
  mqtt: {
    port: value(
      'MQTT_PORT',
      integer(0, 65535),
      '1883',
      'MQTT (3.1.1 and 5) for devices: events published to devices/<id>/events and /mobile (0: off)',
    ),
    tlsPort: adjusted(
      value('MQTTS_PORT', integer(0, 65535), '0', 'MQTT over TLS, with the TLS_CERT and TLS_KEY of HTTPS (0: off)'),
      (port, get) => {
        if (port !== 0 && get('TLS_CERT') === undefined)
          throw new ConfigError('MQTTS_PORT needs TLS_CERT and TLS_KEY (the certificate HTTPS uses)');
        return port;
      },
    ),
    maxConnectionsPerOrganization: value(
      'MQTT_MAX_CONNECTIONS_PER_ORGANIZATION',
      integer(1),
      '10000',
      "MQTT connections one organization's devices may hold open on a server; past it a CONNECT is refused (quota exceeded)",
    ),
    receiveMaximum: value(
      'MQTT_RECEIVE_MAXIMUM',
      integer(1, 65535),
      '64',
      'QoS 1 messages a connection may have waiting for their commit (PUBACK); past it the server stops reading it',
    ),
    maxKeepAliveSeconds: value(
      'MQTT_MAX_KEEPALIVE_SECONDS',
      integer(5, 65535),
      '300',
      'the longest keep-alive a client gets (one asking for none or more gets this); silent for 1.5 times it, it is closed',
    ),
    /** broker mode: the server subscribes to devices' messages on a broker (src/mqtt/broker-subscriber.ts); undefined: off */
    broker: combined(
      {
        url: unset(
          'MQTT_BROKER_URL',
          brokerUrl,
          '(none: off)',
          "broker mode: an MQTT broker (mqtt:// or mqtts://) whose devices' messages this server takes through a shared subscription (MQTT 5, QoS 1, acknowledged once committed)",
        ),
        username: unset('MQTT_BROKER_USERNAME', text, '(none)', 'broker mode: the user name the server connects with'),
        password: unset(
          'MQTT_BROKER_PASSWORD',
          text,
          '(none)',
          'broker mode: the password the server connects with (never logged)',
        ),
        shareGroup: value(
          'MQTT_SHARE_GROUP',
          shareGroup,
          'sense',
          'broker mode: the shared subscription group ($share/<group>/devices/+/events and /mobile); the replicas of one deployment share it, each message goes to one of them',
        ),
        clientId: derived(
          'MQTT_BROKER_CLIENT_ID',
          text,
          'sense-<host name>',
          "broker mode: this replica's client id, stable across its restarts: the broker keeps its session (and the messages it has not acknowledged) under it",
          () => `sense-${hostname()}`,
        ),
      },
      brokerOf,
    ),
    /** the bearer secret of POST /v1/mqtt/auth and /v1/mqtt/acl; undefined: the routes answer 404 */
    authHookSecret: unset(
      'MQTT_AUTH_HOOK_SECRET',
      text,
      '(none: the hooks answer 404)',
      "the secret a broker's HTTP auth hooks (POST /v1/mqtt/auth, /v1/mqtt/acl) send as Authorization: Bearer <secret> (never logged)",
    ),
  },
  deviceTokenTtlSeconds: value(
    'DEVICE_TOKEN_TTL_SECONDS',
    integer(60),
    '31536000',
    'lifetime of device tokens from /v1/registration',
    { note: '1 year' },
  ),
  deviceEventRate: value(
    'DEVICE_EVENT_RATE',
    integer(1),
    '200',
    'events per second a device may send (sustained) before 429',
  ),
  deviceEventBurst: value('DEVICE_EVENT_BURST', integer(1), '2000', 'events a device may send at once above its rate'),
  maxIngestBodyBytes: value(
    'MAX_INGEST_BODY_BYTES',
    integer(1024),
    '4194304',
    'largest ingestion request body (a batch)',
  ),
  actionRetryBaseMs: value(
    'ACTION_RETRY_BASE_MS',
    integer(10),
    '1000',
    'first retry delay of a failed rule action (doubles each time)',
  ),
  /** milliseconds of rule evaluation per second each organization may use (platform/rules/budget.ts) */
  ruleEvaluationMsPerSecond: value(
    'RULE_EVALUATION_MS_PER_SECOND',
    integer(1, 1000),
    '100',
    "milliseconds per second of the event loop one organization's rules may take to evaluate, half a second's worth at once; past it, its events are stored with their rules left out (counted, logged)",
  ),
  eventRetentionDays: value(
    'EVENT_RETENTION_DAYS',
    integer(0, 36_500),
    '0',
    'days ingested events are kept at least; older days are dropped whole, hourly (0: kept forever)',
  ),
  keptFramesMaxBytes: value(
    'KEPT_FRAMES_MAX_MB',
    mebibytes(0, 16_777_216),
    '1024',
    'most megabytes (MiB) of camera frames one organization keeps (vision profiles with keepFrames, in the model store); past it, its oldest frames are removed (0: no frame is kept)',
  ),
  keptFramesAccountMaxBytes: value(
    'KEPT_FRAMES_ACCOUNT_MAX_MB',
    mebibytes(0, 16_777_216),
    '4096',
    'most megabytes (MiB) of camera frames the organizations one account (the user who created them) keep together; past it, its oldest frames are removed (0: no frame is kept)',
  ),
  keptFramesTotalMaxBytes: value(
    'KEPT_FRAMES_TOTAL_MAX_MB',
    mebibytes(0, 16_777_216),
    '16384',
    'most megabytes (MiB) of camera frames kept in all, every organization together (size the disk or bucket for it); past it, the accounts keeping the most lose their oldest frames first (0: no frame is kept)',
  ),
  /** the live event tail (GET /v2/events/stream): see platform/event-tail.ts */
  eventStreams: {
    pollMs: value(
      'EVENT_STREAM_POLL_MS',
      integer(100, 60_000),
      '1000',
      'how often each server reads new events for the live event streams (GET /v2/events/stream): one query per organization with streams open on it, none without',
    ),
    perOrganization: value(
      'EVENT_STREAMS_PER_ORGANIZATION',
      integer(1, 100_000),
      '20',
      'live event streams one organization may have open on one server before 429',
    ),
    perServer: value(
      'EVENT_STREAMS_PER_SERVER',
      integer(1, 1_000_000),
      '1000',
      'live event streams one server may have open, all organizations together, before 429',
    ),
    bufferBytes: value(
      'EVENT_STREAM_BUFFER_BYTES',
      integer(1024, 1024 * 1024 * 1024),
      '1048576',
      'bytes of events one live stream may hold for a client that reads too slowly; past it the client is dropped',
    ),
  },
  mapTileUrl: unset(
    'MAP_TILE_URL',
    tileTemplate,
    '(none: the maps are a grid of latitude and longitude)',
    "tile URL template the console's maps lay under landmarks and devices, e.g. https://tile.openstreetmap.org/{z}/{x}/{y}.png; each user may set their own on the Landmarks page",
  ),
  /** WEBHOOK_ALLOWED_HOSTS entries, lower-cased and checked */
  webhookAllowedHosts: adjusted(
    unset(
      'WEBHOOK_ALLOWED_HOSTS',
      allowedHosts,
      '(none: internal addresses are refused)',
      'comma list of host names, IP addresses and CIDR ranges rule webhooks may reach although internal (loopback, private, link-local...)',
    ),
    (hosts) => hosts ?? [],
  ),
  /** STREAM_ALLOWED_HOSTS entries, lower-cased and checked */
  streamAllowedHosts: adjusted(
    unset(
      'STREAM_ALLOWED_HOSTS',
      allowedHosts,
      '(none: internal addresses are refused)',
      "comma list of host names, IP addresses and CIDR ranges cameras' streams (vision profiles' stream.url) may be read from although internal (loopback, private, link-local...)",
    ),
    (hosts) => hosts ?? [],
  ),
  streamFilesDir: unset(
    'STREAM_FILES_DIR',
    path,
    '(none: file:// streams are refused)',
    "the directory under which a vision profile's stream may name a file (file:// URLs), for replays and tests",
  ),
  streamsPerOrganization: value(
    'STREAMS_PER_ORGANIZATION',
    integer(0, 10_000),
    '16',
    "most cameras' streams one organization may have enabled at once (0: none)",
  ),
  ffmpegPath: value('FFMPEG_PATH', text, 'ffmpeg', "the ffmpeg program that reads cameras' streams"),
  /** SECRETS_KEY as given (32 bytes in base64); undefined: DATA_DIR/secrets-key */
  secretsKey: unset(
    'SECRETS_KEY',
    secretsKey,
    '(generated once into DATA_DIR/secrets-key)',
    '32 bytes in base64 (openssl rand -base64 32): the AES-256-GCM key of stored webhook secrets; set the same on every server of a database',
  ),
};

export type Config = Loaded<typeof TABLE>;
/** Server-wide defaults of a version's backend instances (model.json may override each). */
export type InstanceDefaults = Config['instances'];
export type InstanceKind = InstanceDefaults['kind'];
export type BatchingDefaults = Config['batching'];

function settingsOf(table: Table, at: readonly string[] = []): Setting[] {
  return Object.entries(table).flatMap(([key, entry]) => {
    const path = [...at, key];
    if (entry instanceof Field) return [{ ...entry.setting, path }];
    return settingsOf(entry instanceof Combined ? entry.parts : entry, path);
  });
}

/** Every environment variable the server reads, in the order --help prints them. */
export const SETTINGS: readonly Setting[] = settingsOf(TABLE);

const BY_NAME = new Map(SETTINGS.map((s) => [s.name, s]));

function settingNamed(name: string): Setting {
  const setting = BY_NAME.get(name);
  if (setting === undefined) throw new Error(`no setting ${name}`);
  return setting;
}

/** Loads a table from `env`: each field's value, each combination made from its parts, each group its own object. */
function load<T extends Table>(table: T, env: Env): Loaded<T> {
  const loaded: Record<string, unknown> = {};
  for (const [key, entry] of Object.entries(table)) {
    if (entry instanceof Field) loaded[key] = entry.load(env);
    else if (entry instanceof Combined) loaded[key] = entry.combine(load(entry.parts, env) as never);
    else loaded[key] = load(entry, env);
  }
  return loaded as Loaded<T>;
}

/**
 * Both files or neither, readable, and a certificate and key that belong
 * together: uWS would otherwise start without TLS or refuse every handshake
 * without saying why.
 */
function tlsFiles(certFile: string | undefined, keyFile: string | undefined): TlsFiles | undefined {
  if (certFile === undefined && keyFile === undefined) return undefined;
  if (certFile === undefined || keyFile === undefined) {
    throw new ConfigError(
      `TLS_CERT and TLS_KEY go together: ${certFile === undefined ? 'TLS_KEY' : 'TLS_CERT'} is set, ${certFile === undefined ? 'TLS_CERT' : 'TLS_KEY'} is not`,
    );
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
    throw new ConfigError(
      `TLS_CERT (${certFile}) and TLS_KEY (${keyFile}) are not a PEM certificate and its private key: ${(error as Error).message}`,
    );
  }
  return { certFile: resolve(certFile), keyFile: resolve(keyFile) };
}

type ModelStoreConfig =
  | { kind: 'postgres' }
  | {
      kind: 's3';
      endpoint: string;
      bucket: string;
      region: string;
      prefix: string;
      accessKeyId: string;
      secretAccessKey: string;
    };

/** MODEL_STORE with its S3 settings, all of them there when it is s3. */
/** Broker mode's settings, when MQTT_BROKER_URL is set. */
export interface BrokerConfig {
  url: string;
  username: string | undefined;
  password: string | undefined;
  shareGroup: string;
  clientId: string;
}

function brokerOf(broker: {
  url: string | undefined;
  username: string | undefined;
  password: string | undefined;
  shareGroup: string;
  clientId: string;
}): BrokerConfig | undefined {
  if (broker.url === undefined) return undefined;
  if (broker.password !== undefined && broker.username === undefined)
    throw new ConfigError('MQTT_BROKER_PASSWORD needs MQTT_BROKER_USERNAME');
  return { ...broker, url: broker.url };
}

function modelStoreOf(store: {
  kind: 'postgres' | 's3';
  endpoint: string | undefined;
  bucket: string | undefined;
  region: string;
  prefix: string;
  accessKeyId: string | undefined;
  secretAccessKey: string | undefined;
}): ModelStoreConfig {
  if (store.kind === 'postgres') return { kind: 'postgres' };
  const { endpoint, bucket, region, prefix, accessKeyId, secretAccessKey } = store;
  const missing = Object.entries({
    S3_ENDPOINT: endpoint,
    S3_BUCKET: bucket,
    S3_ACCESS_KEY_ID: accessKeyId,
    S3_SECRET_ACCESS_KEY: secretAccessKey,
  })
    .filter(([, v]) => v === undefined)
    .map(([k]) => k);
  if (missing.length) throw new ConfigError(`MODEL_STORE=s3 needs ${missing.join(', ')}`);
  if (!/^https?:\/\/[^/]+/.test(endpoint!))
    throw new ConfigError(`S3_ENDPOINT must be an http(s) URL, got "${endpoint}"`);
  return {
    kind: 's3',
    endpoint: endpoint!,
    bucket: bucket!,
    region,
    prefix,
    accessKeyId: accessKeyId!,
    secretAccessKey: secretAccessKey!,
  };
}

export function loadConfig(env: Env = process.env): Config {
  return load(TABLE, env);
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
