// A Logger writes as its own settings say: two in one process (two servers
// configured differently, as the tests run them) do not share a level or a
// format, and nothing one does changes the other.
import { describe, expect, it } from 'vitest';
import { Logger, logSettings, type LogSettings } from '../../src/log.js';
import { loadConfig } from '../../src/config.js';

/** A logger and the lines it wrote, each as written (one newline at its end). */
function capturing(settings: LogSettings): { log: Logger; lines: string[] } {
  const lines: string[] = [];
  return { log: new Logger(settings, (line) => lines.push(line)), lines };
}

describe('two loggers in one process', () => {
  it('each write at their own level and in their own format', () => {
    const quiet = capturing({ level: 'warn', format: 'text' });
    const verbose = capturing({ level: 'debug', format: 'json' });
    for (const { log } of [quiet, verbose]) {
      log.debug('probing', { step: 1 });
      log.info('started', { port: 8080 });
      log.warn('slow', { ms: 250 });
    }

    expect(quiet.lines).toHaveLength(1);
    expect(quiet.lines[0]).toMatch(/^\d{4}-\d\d-\d\dT[\d:.]+Z warn  slow ms=250\n$/);
    expect(verbose.lines.map((line) => JSON.parse(line))).toEqual([
      expect.objectContaining({ level: 'debug', msg: 'probing', step: 1 }),
      expect.objectContaining({ level: 'info', msg: 'started', port: 8080 }),
      expect.objectContaining({ level: 'warn', msg: 'slow', ms: 250 }),
    ]);
    expect(verbose.lines.every((line) => line.endsWith('}\n'))).toBe(true);
  });

  it('answer logs() by their own level', () => {
    const quiet = new Logger({ level: 'error', format: 'text' });
    const verbose = new Logger({ level: 'debug', format: 'text' });
    expect(['debug', 'info', 'warn', 'error'].map((level) => quiet.logs(level as LogSettings['level']))).toEqual([
      false,
      false,
      false,
      true,
    ]);
    expect(verbose.logs('debug')).toBe(true);
  });

  it('give an error its stack only where their level is debug', () => {
    const error = new Error('boom');
    const atInfo = capturing({ level: 'info', format: 'text' });
    const atDebug = capturing({ level: 'debug', format: 'text' });
    atInfo.log.error('failed', { error });
    atDebug.log.error('failed', { error });
    expect(atInfo.lines[0]).toMatch(/ error failed error="boom"\n$/);
    expect(atDebug.lines[0]).toContain(' error failed error="boom" stack="Error: boom');
  });

  it('are built from LOG_LEVEL and LOG_FORMAT, and keep the settings they hand to threads', () => {
    const settings = logSettings(loadConfig({ LOG_LEVEL: 'debug', LOG_FORMAT: 'json' }));
    expect(settings).toEqual({ level: 'debug', format: 'json' });
    expect(new Logger(settings).settings).toEqual(settings);
    expect(logSettings(loadConfig({}))).toEqual({ level: 'info', format: 'text' });
  });
});
