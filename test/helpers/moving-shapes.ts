// A clip for camera stream tests: shapes drawn as the demo detector knows
// them (a circle and a square, solid colours on a plain ground) moving on
// known paths, at 10 frames a second, 640x360. The frames are JPEGs; the
// clip is encoded by ffmpeg (H.264 in Matroska), as a camera's recording.
import { spawn } from 'node:child_process';
import sharp from 'sharp';

export const CLIP = { width: 640, height: 360, fps: 10 } as const;

interface Shape {
  label: 'circle' | 'square';
  /** centre, in the image's fractions */
  x: number;
  y: number;
}

/** Linear motion from `from` to `to` over frames [start, end]; absent outside them. */
function along(frame: number, start: number, end: number, from: [number, number], to: [number, number]) {
  if (frame < start || frame > end) return undefined;
  const t = (frame - start) / (end - start);
  return { x: from[0] + (to[0] - from[0]) * t, y: from[1] + (to[1] - from[1]) * t };
}

/**
 * The script: over 10 s, a circle crosses the image left to right on the
 * upper third (frames 0-50: in at x 0.1, out at x 0.9, so it crosses x 0.5
 * about frame 25), and a square comes into the lower right quarter
 * (frames 10-25), stays there still (25-45), and leaves down (45-55). The
 * last 4.5 s are empty ground.
 */
function shapesAt(frame: number, still = false): Shape[] {
  // `still`: a square that never moves, in the lower left, in every frame (an object that stays whatever happens)
  const shapes: Shape[] = still ? [{ label: 'square', x: 0.2, y: 0.75 }] : [];
  const circle = along(frame, 0, 50, [0.1, 0.3], [0.9, 0.3]);
  if (circle) shapes.push({ label: 'circle', ...circle });
  const square =
    along(frame, 10, 25, [0.55, 0.9], [0.75, 0.7]) ??
    along(frame, 26, 45, [0.75, 0.7], [0.75, 0.7]) ??
    along(frame, 46, 55, [0.75, 0.7], [0.75, 0.92]);
  if (square) shapes.push({ label: 'square', ...square });
  return shapes;
}

/**
 * The places the clip's script is written against: a line down the middle
 * (drawn top to bottom, so the circle's left-to-right crossing is `out`) and
 * the lower right quarter as a zone (where the square stays).
 */
export const CLIP_PLACES = {
  lines: [
    {
      name: 'gate',
      line: [
        [0.5, 0],
        [0.5, 1],
      ],
    },
  ],
  zones: [
    {
      name: 'corner',
      polygon: [
        [0.5, 0.5],
        [1, 0.5],
        [1, 1],
        [0.5, 1],
      ],
    },
  ],
};

const CLIP_FRAMES = 100;

function frameSvg(shapes: readonly Shape[]): string {
  const { width: W, height: H } = CLIP;
  const r = 30;
  const drawn = shapes.map((s) =>
    s.label === 'circle'
      ? `<circle cx="${s.x * W}" cy="${s.y * H}" r="${r}" fill="#d03030"/>`
      : `<rect x="${s.x * W - r}" y="${s.y * H - r}" width="${2 * r}" height="${2 * r}" fill="#3050d0"/>`,
  );
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${W}" height="${H}"><rect width="${W}" height="${H}" fill="#9aa3a8"/>${drawn.join('')}</svg>`;
}

/** The clip's frames as JPEGs; `still`: with a square that stays in the lower left throughout. */
export async function clipFrames(still = false): Promise<Buffer[]> {
  const frames: Buffer[] = [];
  for (let i = 0; i < CLIP_FRAMES; i++) {
    frames.push(
      await sharp(Buffer.from(frameSvg(shapesAt(i, still))))
        .jpeg()
        .toBuffer(),
    );
  }
  return frames;
}

/** Encodes JPEG frames into an H.264 Matroska file at the clip's rate. */
export async function encodeClip(frames: readonly Buffer[], path: string): Promise<void> {
  const ffmpeg = spawn(
    'ffmpeg',
    [
      ...['-hide_banner', '-loglevel', 'error', '-y', '-f', 'image2pipe', '-framerate', String(CLIP.fps)],
      ...['-c:v', 'mjpeg', '-i', 'pipe:0', '-c:v', 'libx264', '-preset', 'veryfast', '-pix_fmt', 'yuv420p'],
      ...['-g', String(CLIP.fps), path],
    ],
    { stdio: ['pipe', 'ignore', 'pipe'] },
  );
  let stderr = '';
  ffmpeg.stderr.on('data', (chunk) => (stderr += chunk));
  for (const frame of frames) ffmpeg.stdin.write(frame);
  ffmpeg.stdin.end();
  const code = await new Promise<number | null>((resolve) => ffmpeg.on('close', resolve));
  if (code !== 0) throw new Error(`ffmpeg could not encode the clip: ${stderr}`);
}
