// A small leveled logger writing one line per event to stderr. Secrets never
// reach it by construction: callers log ids and prefixes, not tokens or keys.
import type { LogLevel } from './config.js';

const ORDER: Record<LogLevel, number> = { debug: 10, info: 20, warn: 30, error: 40 };
let threshold = ORDER.info;

export function setLogLevel(level: LogLevel): void {
  threshold = ORDER[level];
}

type Fields = Record<string, unknown>;

function format(value: unknown): string {
  if (value instanceof Error) return JSON.stringify(value.message);
  if (typeof value === 'string') return /^[\w.:/@-]+$/.test(value) ? value : JSON.stringify(value);
  return JSON.stringify(value) ?? String(value);
}

function write(level: LogLevel, message: string, fields?: Fields): void {
  if (ORDER[level] < threshold) return;
  let line = `${new Date().toISOString()} ${level.padEnd(5)} ${message}`;
  if (fields) {
    for (const [key, value] of Object.entries(fields)) {
      if (value !== undefined) line += ` ${key}=${format(value)}`;
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
