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

const ROOT = resolve(import.meta.dirname, '../..');
const bench = (...args: string[]) =>
  spawnSync(process.execPath, ['--import', 'tsx', 'bench/cli.ts', ...args], {
    cwd: ROOT,
    encoding: 'utf8',
    timeout: 60_000,
  });

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
});
