// The benchmark's models: the bundled demo, the YOLOv8n-sized model exported
// on first use (needs PyTorch for Debian's python3), the dense 80-class head
// of test/fixtures/dense-head.ts (written on first use, in JS), or any model
// directory.
// The defaults are committed models only, so that `npm run bench` runs on a
// fresh checkout with nothing to install; --model yolov8n asks for the
// export.
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { ROOT } from '../test/helpers/server.js';

const CACHE = join(ROOT, 'bench', '.cache');

/** What `npm run bench` and `-- batching` measure without --model: committed models, no export. */
export const DEFAULT_MODELS: readonly string[] = ['demo'];
const say = (text: string) => process.stderr.write(`[bench] ${text}\n`);

const DEBIAN_PYTHON = '/usr/bin/python3';

const EXPORT_SCRIPT = join(ROOT, 'scripts', 'export-yolov8n.py');
/** Beside the exported model: the script's hash, so a changed script exports again. */
const STAMP = 'export-script.sha256';

function scriptHash(): string {
  return createHash('sha256').update(readFileSync(EXPORT_SCRIPT)).digest('hex');
}

function exportYolov8n(dir: string): void {
  try {
    execFileSync(DEBIAN_PYTHON, ['-c', 'import torch'], { stdio: 'ignore' });
  } catch {
    throw new Error(
      `the YOLOv8n-sized benchmark model is exported on first use by scripts/export-yolov8n.py, which needs PyTorch ` +
        `for ${DEBIAN_PYTHON}: apt-get install python3-torch (or run with --model demo)`,
    );
  }
  say('exporting the YOLOv8n-sized benchmark model (first use) ...');
  execFileSync(DEBIAN_PYTHON, [EXPORT_SCRIPT, dir], { stdio: 'inherit' });
  writeFileSync(join(dir, STAMP), scriptHash());
}

function exportedByThisScript(dir: string): boolean {
  const stamp = join(dir, STAMP);
  return existsSync(join(dir, 'model.onnx')) && existsSync(stamp) && readFileSync(stamp, 'utf8') === scriptHash();
}

/** Resolves (and exports on first use) every model before anything is measured, so a missing one fails at once. */
export async function modelDirectory(model: string): Promise<string> {
  if (model === 'demo') return join(ROOT, 'models', 'demo');
  if (model === 'dense' || model === 'dense-crowd') {
    // Thousands of anchors pass the default threshold: postprocess's worst cases (the crowd: NMS never fills).
    // Written afresh: it is made in milliseconds.
    // Imported here, not at the top: the fixture builds models with onnx-proto, a
    // development dependency that the GPU bundle (production dependencies only) lacks.
    const { buildDenseHeadModel, DENSE_CONFIG, DENSE_CROWD } = await import('../test/fixtures/dense-head.js');
    const dir = join(CACHE, model);
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, 'model.onnx'), buildDenseHeadModel(model === 'dense' ? {} : DENSE_CROWD));
    writeFileSync(join(dir, 'model.json'), JSON.stringify(DENSE_CONFIG, null, 2));
    return dir;
  }
  if (model === 'yolov8n') {
    const dir = join(CACHE, 'yolov8n');
    if (!exportedByThisScript(dir)) exportYolov8n(dir);
    return dir;
  }
  const dir = resolve(model);
  if (!existsSync(join(dir, 'model.onnx'))) throw new Error(`no model.onnx in ${dir}`);
  return dir;
}
