// Writes a benchmark report: JSON (the data), Markdown (the summary a person
// reads) and an SVG chart of latency against throughput.
import { execFileSync } from 'node:child_process';
import { writeFile } from 'node:fs/promises';

export interface Stat {
  median: number;
  min: number;
  max: number;
  runs: number[];
}

export function stat(runs: number[]): Stat {
  const sorted = [...runs].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  const median = sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
  return { median, min: sorted[0]!, max: sorted[sorted.length - 1]!, runs };
}

export interface LevelResult {
  concurrency: number;
  rps: Stat;
  p50: Stat;
  p90: Stat;
  p99: Stat;
  cpuCores: Stat;
  errors: number;
  /** failed responses over all repetitions by status ("503": shed by the bounded queue) */
  errorStatuses: Record<string, number>;
}

export interface StageCosts {
  decodeMs: number;
  preprocessMs: number;
  inferenceMs: number;
  postprocessMs: number;
}

interface Ratios {
  concurrency: number;
  server_vs_pipeline: number;
  server_vs_baseline: number;
  server_p99_ms: number;
  baseline_p99_ms: number;
}

export interface Report {
  created: string;
  command: string;
  machine: Record<string, string | number>;
  /** the server's cheapest endpoint: what one request costs it, nothing else */
  trivial_endpoint: { endpoint: string; connections: number; rps: Stat };
  /** the load generator against a bare uWS app in its own process: its own limit */
  generator_ceiling: { connections: number; rps: Stat };
  workloads: string[];
  model_limit: Record<string, Stat>;
  pipeline_limit: Record<string, Stat>;
  server: Record<string, LevelResult[]>;
  baseline: Record<string, LevelResult[]>;
  stages: Record<string, StageCosts>;
  ratios: Record<string, Ratios>;
}

const f = (v: number, digits = 1) => (Number.isFinite(v) ? v.toFixed(digits) : '–');
const range = (s: Stat, digits = 1) => `${f(s.median, digits)} (${f(s.min, digits)}–${f(s.max, digits)})`;

function markdown(report: Report): string {
  const lines: string[] = [
    `# Benchmark ${report.created}`,
    '',
    `Command: \`${report.command}\``,
    '',
    `Machine: ${Object.entries(report.machine)
      .map(([k, v]) => `${k} ${v}`)
      .join(', ')}`,
    '',
    `Figures are medians of ${report.trivial_endpoint.rps.runs.length > 0 ? 'several' : ''} repetitions with (min–max). ` +
      `The server's trivial endpoint, \`${report.trivial_endpoint.endpoint}\` with ${report.trivial_endpoint.connections} connections: ` +
      `**${range(report.trivial_endpoint.rps, 0)} req/s**; the load generator's own ceiling (a bare uWS app in its process, ${report.generator_ceiling.connections} connections): ` +
      `**${range(report.generator_ceiling.rps, 0)} req/s**.`,
    'req/s counts successful responses only and the latency percentiles are theirs; ' +
      'failed responses are in the errors column by status (503: shed by the bounded queue, with Retry-After).',
    '',
  ];
  for (const name of report.workloads) {
    const r = report.ratios[name]!;
    const stages = report.stages[name];
    lines.push(`## ${name}`, '');
    lines.push(`- model limit (ORT run() only): **${range(report.model_limit[name]!)} images/s**`);
    lines.push(
      `- pipeline limit (decode + preprocess + inference + NMS, no HTTP): **${range(report.pipeline_limit[name]!)} images/s**`,
    );
    lines.push(
      `- at ${r.concurrency} clients: server ÷ pipeline limit = **${f(r.server_vs_pipeline, 2)}**, server ÷ baseline = **${f(r.server_vs_baseline, 2)}**; ` +
        `p99 server ${f(r.server_p99_ms)} ms vs baseline ${f(r.baseline_p99_ms)} ms`,
    );
    if (stages) {
      lines.push(
        `- server time per image in a worker: decode ${f(stages.decodeMs, 2)} ms, preprocess ${f(stages.preprocessMs, 2)} ms, ` +
          `inference ${f(stages.inferenceMs, 2)} ms, postprocess ${f(stages.postprocessMs, 2)} ms; ${largestStage(stages)}`,
      );
    }
    lines.push(
      '',
      '| system | clients | req/s | p50 ms | p90 ms | p99 ms | CPU cores | errors |',
      '|---|---|---|---|---|---|---|---|',
    );
    for (const [system, levels] of [
      ['server', report.server[name]!],
      ['baseline', report.baseline[name]!],
    ] as const) {
      for (const l of levels) {
        lines.push(
          `| ${system} | ${l.concurrency} | ${range(l.rps)} | ${f(l.p50.median)} | ${f(l.p90.median)} | ${range(l.p99)} | ${f(l.cpuCores.median, 2)} | ${errorCell(l)} |`,
        );
      }
    }
    lines.push('');
  }
  return lines.join('\n');
}

/** Where a worker's time goes: the stage to attack first. */
function largestStage(stages: StageCosts): string {
  const entries = Object.entries(stages).map(([key, ms]) => [key.replace(/Ms$/, ''), ms] as const);
  const total = entries.reduce((sum, [, ms]) => sum + ms, 0);
  const [name, ms] = entries.reduce((a, b) => (b[1] > a[1] ? b : a));
  return `largest cost: **${name}** (${f((100 * ms) / total, 0)}% of the worker's time)`;
}

function errorCell(level: LevelResult): string {
  const statuses = Object.entries(level.errorStatuses ?? {});
  if (level.errors === 0) return '0';
  const detail = statuses.map(([status, n]) => `${status}×${n}`).join(', ');
  return detail ? `${level.errors} (${detail})` : String(level.errors);
}

/** Latency (p50 solid, p99 dashed) against throughput, one colour per system and workload. */
function chart(report: Report): string {
  const W = 900;
  const H = 520;
  const m = { left: 70, right: 250, top: 40, bottom: 55 };
  const series: Array<{ label: string; colour: string; dash: boolean; points: Array<[number, number, number]> }> = [];
  const colours = ['#1f77b4', '#d62728', '#2ca02c', '#9467bd', '#ff7f0e', '#8c564b', '#e377c2', '#17becf'];
  let c = 0;
  for (const name of report.workloads) {
    for (const system of ['server', 'baseline'] as const) {
      const levels = report[system][name]!;
      const colour = colours[c++ % colours.length]!;
      series.push({
        label: `${system} ${name} p50`,
        colour,
        dash: false,
        points: levels.map((l) => [l.rps.median, l.p50.median, l.concurrency]),
      });
      series.push({
        label: `${system} ${name} p99`,
        colour,
        dash: true,
        points: levels.map((l) => [l.rps.median, l.p99.median, l.concurrency]),
      });
    }
  }
  const all = series.flatMap((s) => s.points).filter((p) => Number.isFinite(p[0]) && Number.isFinite(p[1]));
  const maxX = Math.max(1, ...all.map((p) => p[0])) * 1.1;
  const maxY = Math.max(1, ...all.map((p) => p[1]));
  const minY = Math.max(0.1, Math.min(...all.map((p) => p[1])));
  const logMin = Math.log10(minY) - 0.1;
  const logMax = Math.log10(maxY) + 0.1;
  const x = (v: number) => m.left + (v / maxX) * (W - m.left - m.right);
  const y = (v: number) =>
    H - m.bottom - ((Math.log10(Math.max(v, minY)) - logMin) / (logMax - logMin)) * (H - m.top - m.bottom);
  const out: string[] = [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${W}" height="${H}" font-family="sans-serif" font-size="12">`,
    `<rect width="${W}" height="${H}" fill="white"/>`,
    `<text x="${m.left}" y="22" font-size="15">Latency vs throughput (${report.created})</text>`,
    `<line x1="${m.left}" y1="${H - m.bottom}" x2="${W - m.right}" y2="${H - m.bottom}" stroke="black"/>`,
    `<line x1="${m.left}" y1="${m.top}" x2="${m.left}" y2="${H - m.bottom}" stroke="black"/>`,
    `<text x="${(m.left + W - m.right) / 2}" y="${H - 15}" text-anchor="middle">requests per second</text>`,
    `<text x="18" y="${(m.top + H - m.bottom) / 2}" transform="rotate(-90 18 ${(m.top + H - m.bottom) / 2})" text-anchor="middle">latency, ms (log scale)</text>`,
  ];
  for (let i = 0; i <= 5; i++) {
    const v = (maxX / 5) * i;
    out.push(`<text x="${x(v)}" y="${H - m.bottom + 16}" text-anchor="middle">${f(v, 0)}</text>`);
  }
  for (let e = Math.floor(logMin); e <= Math.ceil(logMax); e++) {
    for (const k of [1, 2, 5]) {
      const v = k * 10 ** e;
      if (Math.log10(v) < logMin || Math.log10(v) > logMax) continue;
      out.push(`<line x1="${m.left}" x2="${W - m.right}" y1="${y(v)}" y2="${y(v)}" stroke="#eee"/>`);
      out.push(`<text x="${m.left - 6}" y="${y(v) + 4}" text-anchor="end">${v}</text>`);
    }
  }
  series.forEach((s, i) => {
    const pts = s.points.filter((p) => Number.isFinite(p[0]) && Number.isFinite(p[1]));
    out.push(
      `<polyline fill="none" stroke="${s.colour}" stroke-width="2"${s.dash ? ' stroke-dasharray="5,4"' : ''} points="${pts.map((p) => `${x(p[0])},${y(p[1])}`).join(' ')}"/>`,
    );
    for (const p of pts) {
      out.push(
        `<circle cx="${x(p[0])}" cy="${y(p[1])}" r="3" fill="${s.colour}"><title>${s.label} c=${p[2]}: ${f(p[0])} req/s, ${f(p[1])} ms</title></circle>`,
      );
    }
    const ly = m.top + i * 16;
    out.push(
      `<line x1="${W - m.right + 12}" x2="${W - m.right + 36}" y1="${ly}" y2="${ly}" stroke="${s.colour}" stroke-width="2"${s.dash ? ' stroke-dasharray="5,4"' : ''}/>`,
    );
    out.push(`<text x="${W - m.right + 42}" y="${ly + 4}" font-size="11">${s.label}</text>`);
  });
  out.push('</svg>');
  return out.join('\n');
}

export async function writeReport(report: Report, basePath: string): Promise<string> {
  await writeFile(`${basePath}.json`, JSON.stringify(report, null, 2) + '\n');
  await writeFile(
    `${basePath}.md`,
    markdown(report) + `\n![latency vs throughput](${basePath.split('/').pop()}.svg)\n`,
  );
  await writeFile(`${basePath}.svg`, chart(report));
  return `${basePath}.json`;
}

/** The GPUs and driver nvidia-smi names, for a report's machine line. */
export function gpuName(): string {
  try {
    const names = execFileSync('nvidia-smi', ['--query-gpu=name,driver_version', '--format=csv,noheader'], {
      encoding: 'utf8',
    }).trim();
    return `GPU ${names.split('\n').join('; ')}`;
  } catch {
    return 'GPU unknown (no nvidia-smi)';
  }
}
