// A small leveled logger writing one line per event to stderr: readable text
// by default, or one JSON object per line (LOG_FORMAT=json) for log shippers.
// Callers log ids and prefixes, not tokens or keys; as a second line of
// defence, fields whose names say they hold a secret are written redacted.
//
// A Logger is a value, built once from the configuration (LOG_LEVEL,
// LOG_FORMAT) by the composition root and handed down like every other
// setting: no module keeps a level or a format of its own, so two servers in
// one process each log as they were told. Threads and child processes are
// given the settings (`Logger.settings`) and build their own.
import type { Config, LogFormat, LogLevel } from './config.js';
import { CodedError } from './errors.js';

const ORDER: Record<LogLevel, number> = { debug: 10, info: 20, warn: 30, error: 40 };

/** What a Logger is built from, and what a thread or child process is given to build its own. */
export interface LogSettings {
  level: LogLevel;
  format: LogFormat;
}

/** The settings the configuration says (LOG_LEVEL, LOG_FORMAT). */
export function logSettings(config: Pick<Config, 'logLevel' | 'logFormat'>): LogSettings {
  return { level: config.logLevel, format: config.logFormat };
}

/** Where a logger's lines go, each ending in a newline: stderr unless a test wants them. */
type LogSink = (line: string) => void;

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

function textValue(value: unknown): string {
  if (typeof value === 'string') return /^[\w.:/@-]+$/.test(value) ? value : JSON.stringify(value);
  return JSON.stringify(value) ?? String(value);
}

export class Logger {
  /** what it was built from: a thread or child process it starts builds its logger from these */
  readonly settings: Readonly<LogSettings>;
  private readonly threshold: number;
  private readonly json: boolean;

  constructor(
    settings: LogSettings,
    private readonly sink: LogSink = (line) => process.stderr.write(line),
  ) {
    this.settings = Object.freeze({ level: settings.level, format: settings.format });
    this.threshold = ORDER[settings.level];
    this.json = settings.format === 'json';
  }

  /** Whether a line at `level` would be written (to skip building costly fields). */
  logs(level: LogLevel): boolean {
    return ORDER[level] >= this.threshold;
  }

  debug(message: string, fields?: Fields): void {
    this.write('debug', message, fields);
  }

  info(message: string, fields?: Fields): void {
    this.write('info', message, fields);
  }

  warn(message: string, fields?: Fields): void {
    this.write('warn', message, fields);
  }

  error(message: string, fields?: Fields): void {
    this.write('error', message, fields);
  }

  /**
   * An Error as its message (and name and code, a CodedError's stable one); its stack only at debug level (callers pass a
   * `stack` field themselves where one is always wanted: unexpected 500s).
   */
  private serializeError(error: Error): unknown {
    if (!this.json) return error.message;
    const out: Record<string, unknown> = { message: error.message };
    if (error.name && error.name !== 'Error') out.name = error.name;
    const code = (error as { code?: unknown }).code;
    if (code !== undefined) out.code = code;
    if (this.threshold <= ORDER.debug && error.stack) out.stack = error.stack;
    return out;
  }

  /** The value as it may be logged: secrets redacted (nested objects too), errors serialised. */
  private clean(key: string, value: unknown, depth: number): unknown {
    if (SECRET_FIELD.test(key)) return REDACTED;
    if (value instanceof Error) return this.serializeError(value);
    if (depth < 4 && value !== null && typeof value === 'object' && Object.getPrototypeOf(value) === Object.prototype) {
      const out: Record<string, unknown> = {};
      for (const [k, v] of Object.entries(value)) out[k] = this.clean(k, v, depth + 1);
      return out;
    }
    return value;
  }

  private write(level: LogLevel, message: string, fields?: Fields): void {
    if (ORDER[level] < this.threshold) return;
    const time = new Date().toISOString();
    let line: string;
    if (this.json) {
      const record: Record<string, unknown> = { time, level, msg: message };
      if (fields) {
        for (const [key, value] of Object.entries(fields)) {
          if (value !== undefined) record[RESERVED.has(key) ? `_${key}` : key] = this.clean(key, value, 0);
        }
      }
      line = JSON.stringify(record);
    } else {
      line = `${time} ${level.padEnd(5)} ${message}`;
      if (fields) {
        for (const [key, value] of Object.entries(fields)) {
          // An error's message is always quoted, as it always was: greppable as error="…".
          if (value !== undefined)
            line += ` ${key}=${value instanceof Error ? JSON.stringify(value.message) : textValue(this.clean(key, value, 0))}`;
          // A domain error's code goes with it (JSON has it inside the error), unless the caller wrote one.
          if (value instanceof CodedError && fields.code === undefined) line += ` code=${value.code}`;
        }
        if (this.threshold <= ORDER.debug && fields.stack === undefined) {
          const error = Object.values(fields).find((v): v is Error => v instanceof Error);
          if (error?.stack) line += ` stack=${JSON.stringify(error.stack)}`;
        }
      }
    }
    this.sink(line + '\n');
  }
}
