// The benchmark's models: the bundled demo, the YOLOv8n-sized model exported
// on first use (needs PyTorch for Debian's python3), or any model directory.
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { ROOT } from '../test/helpers/server.js';

const CACHE = join(ROOT, 'bench', '.cache');
const say = (text: string) => process.stderr.write(`[bench] ${text}\n`);

const DEBIAN_PYTHON = '/usr/bin/python3';

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
  execFileSync(DEBIAN_PYTHON, [join(ROOT, 'scripts', 'export-yolov8n.py'), dir], { stdio: 'inherit' });
}

/** Resolves (and exports on first use) every model before anything is measured, so a missing one fails at once. */
export function modelDirectory(model: string): string {
  if (model === 'demo') return join(ROOT, 'models', 'demo');
  if (model === 'yolov8n') {
    const dir = join(CACHE, 'yolov8n');
    if (!existsSync(join(dir, 'model.onnx'))) exportYolov8n(dir);
    return dir;
  }
  const dir = resolve(model);
  if (!existsSync(join(dir, 'model.onnx'))) throw new Error(`no model.onnx in ${dir}`);
  return dir;
}

