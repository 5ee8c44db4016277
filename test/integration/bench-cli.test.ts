// `npm run bench`: its --help lists every subcommand the dispatcher
// (bench/cli.ts) runs, both read from one table (bench/subcommands.ts), and
// the models it measures by default are committed ones, which need no
// PyTorch to export.
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { DEFAULT_MODELS, modelDirectory } from '../../bench/models.js';
import { SUBCOMMANDS, subcommandOf } from '../../bench/subcommands.js';
import { mosquittoTests } from '../helpers/mosquitto.js';

const ROOT = resolve(import.meta.dirname, '../..');
const benchWithin = (timeout: number, ...args: string[]) =>
  spawnSync(process.execPath, ['--import', 'tsx', 'bench/cli.ts', ...args], { cwd: ROOT, encoding: 'utf8', timeout });
const bench = (...args: string[]) => benchWithin(60_000, ...args);

describe('npm run bench', () => {
  it('dispatches from the table alone, to modules that exist', () => {
    const cli = readFileSync(join(ROOT, 'bench/cli.ts'), 'utf8');
    // No subcommand named in the dispatcher itself: a name only the table has cannot be missed by --help.
    for (const name of Object.keys(SUBCOMMANDS))
      expect(
        cli
          .split('\n')
          .filter((l) => !l.startsWith('//'))
          .join('\n'),
      ).not.toContain(`'${name}'`);
    expect(cli).toContain('SUBCOMMANDS[name].module');
    for (const [name, { module }] of Object.entries(SUBCOMMANDS)) {
      expect(existsSync(join(ROOT, 'bench', module.replace(/\.js$/, '.ts'))), name).toBe(true);
      expect(subcommandOf([name, '--help'])).toBe(name);
    }
    expect(subcommandOf(['--quick'])).toBeUndefined();
  });

  it('lists every subcommand in `npm run bench -- --help`', { timeout: 60_000 }, () => {
    const run = bench('--help');
    expect(run.status, run.stderr).toBe(0);
    for (const [name, { summary }] of Object.entries(SUBCOMMANDS)) {
      expect(run.stdout, name).toContain(`npm run bench -- ${name}`);
      expect(run.stdout, name).toContain(summary);
    }
  });

  it('measures committed models by default, which need no PyTorch export', { timeout: 60_000 }, async () => {
    const committed = execFileSync('git', ['ls-files', 'models'], { cwd: ROOT, encoding: 'utf8' }).split('\n');
    expect(DEFAULT_MODELS.length).toBeGreaterThan(0);
    for (const model of DEFAULT_MODELS) {
      const dir = relative(ROOT, await modelDirectory(model));
      expect(committed, model).toContain(`${dir}/model.onnx`);
      expect(committed, model).toContain(`${dir}/model.json`);
    }
    // The benchmarks that take --model fall back to those defaults, and say so.
    for (const [file, args] of [
      ['bench/run.ts', ['--help']],
      ['bench/batching.ts', ['batching', '--help']],
    ] as const) {
      expect(readFileSync(join(ROOT, file), 'utf8'), file).toMatch(
        /values\.model \?\? (\(quick \? \['demo'\] : )?DEFAULT_MODELS/,
      );
      const help = bench(...args);
      expect(help.stdout, file).toContain(`(default: ${DEFAULT_MODELS.join(' and ')})`);
    }
  });

  it('runs `bench -- mqtt --quick`: every section, crash rounds with nothing PUBACKed missing, broker mode', {
    timeout: 300_000,
  }, () => {
    const run = benchWithin(240_000, 'mqtt', '--quick');
    expect(run.status, run.stderr).toBe(0);
    for (const section of [
      '## QoS 1 events against HTTP single events',
      '## Idle connections',
      '## Crash rounds',
      '## Broker mode',
    ])
      expect(run.stdout).toContain(section);
    // MQTT, MQTT paced, HTTP, HTTP paced: a figure each, events committed
    for (const workload of ['MQTT QoS 1, paced at', 'MQTT QoS 1, 8 in flight', 'HTTP single events, closed loop'])
      expect(run.stdout).toMatch(new RegExp(`^\\| ${workload}[^|]* \\| [^|]+ \\| [1-9]\\d* \\|`, 'm'));
    expect(run.stdout).toMatch(/MQTT ÷ HTTP single events .*: \*\*\d+\.\d+ ×\*\*/);
    expect(run.stdout).toMatch(/durability: (\d+) events acknowledged .* = \1 stored .* ✓/);
    // round | sent | PUBACKed before the kill | resent | resent refused | stored | committed, ack lost | missing | twice
    const round = /^\| 1 \| (\d+) \| (\d+) \| (\d+) \| 0 \| (\d+) \| \d+ \| \*\*(\d+)\*\* \| \*\*(\d+)\*\* \|$/m.exec(
      run.stdout,
    );
    expect(round, run.stdout).not.toBeNull();
    const [sent, acknowledged, resent, stored, missing, twice] = round!.slice(1).map(Number);
    expect(acknowledged).toBeGreaterThan(0);
    expect(resent).toBeGreaterThan(0); // the kill came with messages in flight
    expect(sent).toBe(acknowledged! + resent!);
    expect(stored).toBe(sent);
    expect(missing).toBe(0);
    expect(twice).toBe(0);
    expect(run.stdout).toContain('PUBACKed events missing: **0**, duplicates stored: **0**');

    // Broker mode, through the bench's own Mosquitto: measured wherever the broker tests run (required in CI)
    if (!mosquittoTests) {
      expect(run.stdout).toContain('Not measured in this run: Mosquitto is not installed');
      return;
    }
    expect(run.stdout).not.toContain('Not measured in this run: Mosquitto');
    expect(run.stdout).toMatch(/^\| Broker mode: QoS 1 to Mosquitto, 8 in flight[^|]* \| [^|]+ \| [1-9]\d* \|/m);
    expect(run.stdout).toMatch(/broker mode ÷ the listener .*: \*\*\d+\.\d+ ×\*\*/);
    expect(run.stdout).toMatch(/durability: (\d+) events acknowledged by the broker .* = \1 stored .* ✓/);
    // acknowledged by the broker | refused | stored when killed | stored | missing | twice
    const brokerRound = /^\| (\d+) \| 0 \| (\d+) \| (\d+) \| \*\*(\d+)\*\* \| \*\*(\d+)\*\* \|$/m.exec(run.stdout);
    expect(brokerRound, run.stdout).not.toBeNull();
    const [published, atKill, brokerStored, brokerMissing, brokerTwice] = brokerRound!.slice(1).map(Number);
    expect(atKill).toBeGreaterThan(0);
    expect(atKill).toBeLessThan(published!); // killed mid-stream
    expect(brokerStored).toBe(published);
    expect(brokerMissing).toBe(0);
    expect(brokerTwice).toBe(0);
    expect(run.stdout).toContain('Events the broker acknowledged missing: **0**, stored twice: **0**');
  });
});
