// A box's motion under a constant-velocity Kalman filter, as ByteTrack (and
// SORT before it) models it: the state is the box's centre x and y, its
// aspect ratio (width / height) and its height, each with a velocity; a
// detection measures the four positions. Process and measurement noise are
// diagonal and scale with the box's height (ByteTrack's weights: 1/20 of the
// height for positions, 1/160 for velocities; a tight, slow aspect ratio).
// With diagonal noise and a measurement of positions only, the eight-state
// filter falls apart into four independent filters of (value, velocity), each
// a 2 x 2 covariance: the same estimates as the full matrices, written as
// the few scalar products they are.

/** A box as [x1, y1, x2, y2] in the image's fractions. */
export type Box = readonly [number, number, number, number];

const POSITION_WEIGHT = 1 / 20;
const VELOCITY_WEIGHT = 1 / 160;

/** One coordinate: its value, velocity and their 2 x 2 covariance [pp, pv, vv]. */
interface Axis {
  value: number;
  velocity: number;
  pp: number;
  pv: number;
  vv: number;
}

/** The measured coordinates of a box: centre x, centre y, aspect ratio, height. */
function measure(box: Box): [number, number, number, number] {
  const [x1, y1, x2, y2] = box;
  const height = Math.max(y2 - y1, 1e-6);
  return [(x1 + x2) / 2, (y1 + y2) / 2, (x2 - x1) / height, height];
}

/** Standard deviations of positions (index 2 is the aspect ratio's, not scaled by height). */
function positionStd(height: number, aspectStd: number): [number, number, number, number] {
  const p = POSITION_WEIGHT * height;
  return [p, p, aspectStd, p];
}

function velocityStd(height: number, aspectStd: number): [number, number, number, number] {
  const v = VELOCITY_WEIGHT * height;
  return [v, v, aspectStd, v];
}

export class KalmanBox {
  private readonly axes: Axis[];

  constructor(box: Box) {
    const z = measure(box);
    const height = z[3];
    const p = positionStd(height, 1e-2);
    const v = velocityStd(height, 1e-5);
    this.axes = z.map((value, i) => ({
      value,
      velocity: 0,
      pp: (2 * p[i]!) ** 2,
      pv: 0,
      vv: (10 * v[i]!) ** 2,
    }));
  }

  /** One frame ahead: positions move by their velocities, uncertainty grows. */
  predict(): void {
    const height = this.axes[3]!.value;
    const q = positionStd(height, 1e-2);
    const qv = velocityStd(height, 1e-5);
    for (const [i, a] of this.axes.entries()) {
      a.value += a.velocity;
      // P = F P Fᵀ + Q with F = [[1, 1], [0, 1]]
      const pp = a.pp + 2 * a.pv + a.vv + q[i]! ** 2;
      const pv = a.pv + a.vv;
      const vv = a.vv + qv[i]! ** 2;
      [a.pp, a.pv, a.vv] = [pp, pv, vv];
    }
  }

  /** Corrects the state with a detection's box. */
  update(box: Box): void {
    const z = measure(box);
    const r = positionStd(this.axes[3]!.value, 1e-1);
    for (const [i, a] of this.axes.entries()) {
      const s = a.pp + r[i]! ** 2;
      const [kp, kv] = [a.pp / s, a.pv / s];
      const residual = z[i]! - a.value;
      a.value += kp * residual;
      a.velocity += kv * residual;
      // P = (I - K H) P
      const [pp, pv, vv] = [a.pp, a.pv, a.vv];
      a.pp = (1 - kp) * pp;
      a.pv = (1 - kp) * pv;
      a.vv = vv - kv * pv;
    }
  }

  /** The box the state describes now. */
  box(): Box {
    const [cx, cy, aspect, height] = this.axes.map((a) => a.value) as [number, number, number, number];
    const width = aspect * height;
    return [cx - width / 2, cy - height / 2, cx + width / 2, cy + height / 2];
  }
}
