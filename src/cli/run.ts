// How every command-line tool ends: its exit code, or "error: <message>" and 1.
export function runCli(main: () => Promise<number>): void {
  main().then(
    (code) => process.exit(code),
    (error: Error) => {
      process.stderr.write(`error: ${error.message}\n`);
      process.exit(1);
    },
  );
}
