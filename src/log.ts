// A small leveled logger writing one line per event to stderr: readable text
// by default, or one JSON object per line (LOG_FORMAT=json) for log shippers.
// Callers log ids and prefixes, not tokens or keys; as a second line of
// defence, fields whose names say they hold a secret are written redacted.
import { getEnvironmentData, setEnvironmentData } from 'node:worker_threads';
import type { LogFormat, LogLevel } from './config.js';
import { CodedError } from './errors.js';

const ORDER: Record<LogLevel, number> = { debug: 10, info: 20, warn: 30, error: 40 };

/**
 * The settings as the thread that started this one had them. Each thread has
 * its own copy of this module: without this, the pipeline workers and
 * instance threads logged at info in text whatever LOG_LEVEL and LOG_FORMAT
 * said. Node hands a thread's environment data to the threads it starts.
 */
const INHERITED = 'sense.log' as const;
interface LogSettings {
  level: LogLevel;
  format: LogFormat;
}
const settings: LogSettings = {
  level: 'info',
  format: 'text',
  ...(getEnvironmentData(INHERITED) as LogSettings | undefined),
};
let threshold = ORDER[settings.level];
let json = settings.format === 'json';

/** Threads started from now on inherit the settings. */
function handDown(): void {
  setEnvironmentData(INHERITED, { ...settings });
}

export function setLogLevel(level: LogLevel): void {
  settings.level = level;
  threshold = ORDER[level];
  handDown();
}

export function setLogFormat(format: LogFormat): void {
  settings.format = format;
  json = format === 'json';
  handDown();
}

/** Whether a line at `level` would be written (to skip building costly fields). */
export function logs(level: LogLevel): boolean {
  return ORDER[level] >= threshold;
}

type Fields = Record<string, unknown>;

/**
 * Field names that hold credentials: never written, whatever the caller
 * passed (an Authorization header copied whole, a config object, a token).
 */
const SECRET_FIELD =
  /passw(or)?d|passphrase|secret|token|authori[sz]ation|api[-_]?key|cookie|credential|private[-_]?key|^key$/i;
export const REDACTED = '[redacted]';

/** Keys of the JSON line itself, which fields may not overwrite. */
const RESERVED = new Set(['time', 'level', 'msg']);

/**
 * An Error as its message (and name and code, a CodedError's stable one); its stack only at debug level (callers pass a
 * `stack` field themselves where one is always wanted: unexpected 500s).
 */
function serializeError(error: Error): unknown {
  if (!json) return error.message;
  const out: Record<string, unknown> = { message: error.message };
  if (error.name && error.name !== 'Error') out.name = error.name;
  const code = (error as { code?: unknown }).code;
  if (code !== undefined) out.code = code;
  if (threshold <= ORDER.debug && error.stack) out.stack = error.stack;
  return out;
}

/** The value as it may be logged: secrets redacted (nested objects too), errors serialised. */
function clean(key: string, value: unknown, depth: number): unknown {
  if (SECRET_FIELD.test(key)) return REDACTED;
  if (value instanceof Error) return serializeError(value);
  if (depth < 4 && value !== null && typeof value === 'object' && Object.getPrototypeOf(value) === Object.prototype) {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value)) out[k] = clean(k, v, depth + 1);
    return out;
  }
  return value;
}

function textValue(value: unknown): string {
  if (typeof value === 'string') return /^[\w.:/@-]+$/.test(value) ? value : JSON.stringify(value);
  return JSON.stringify(value) ?? String(value);
}

function write(level: LogLevel, message: string, fields?: Fields): void {
  if (ORDER[level] < threshold) return;
  const time = new Date().toISOString();
  let line: string;
  if (json) {
    const record: Record<string, unknown> = { time, level, msg: message };
    if (fields) {
      for (const [key, value] of Object.entries(fields)) {
        if (value !== undefined) record[RESERVED.has(key) ? `_${key}` : key] = clean(key, value, 0);
      }
    }
    line = JSON.stringify(record);
  } else {
    line = `${time} ${level.padEnd(5)} ${message}`;
    if (fields) {
      for (const [key, value] of Object.entries(fields)) {
        // An error's message is always quoted, as it always was: greppable as error="…".
        if (value !== undefined)
          line += ` ${key}=${value instanceof Error ? JSON.stringify(value.message) : textValue(clean(key, value, 0))}`;
        // A domain error's code goes with it (JSON has it inside the error), unless the caller wrote one.
        if (value instanceof CodedError && fields.code === undefined) line += ` code=${value.code}`;
      }
      if (threshold <= ORDER.debug && fields.stack === undefined) {
        const error = Object.values(fields).find((v): v is Error => v instanceof Error);
        if (error?.stack) line += ` stack=${JSON.stringify(error.stack)}`;
      }
    }
  }
  process.stderr.write(line + '\n');
}

export const log = {
  debug: (message: string, fields?: Fields) => write('debug', message, fields),
  info: (message: string, fields?: Fields) => write('info', message, fields),
  warn: (message: string, fields?: Fields) => write('warn', message, fields),
  error: (message: string, fields?: Fields) => write('error', message, fields),
};
