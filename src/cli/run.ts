// How every command-line tool ends: its exit code, or "error: <message>" and 1;
// and what it logs with.
import { Logger } from '../log.js';

/**
 * A tool's logger: warnings and errors only, in text, whatever LOG_LEVEL and
 * LOG_FORMAT say (they are the server's): what a tool has to say, it prints.
 */
export function toolLogger(): Logger {
  return new Logger({ level: 'warn', format: 'text' });
}

export function runCli(main: () => Promise<number>): void {
  main().then(
    (code) => process.exit(code),
    (error: Error) => {
      process.stderr.write(`error: ${error.message}\n`);
      process.exit(1);
    },
  );
}
