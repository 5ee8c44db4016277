// A minimal Prometheus registry: counters, gauges and histograms with labels,
// rendered in the text exposition format (version 0.0.4). Small on purpose:
// recording is a Map lookup and an add, cheap enough for every request.
import type { ErrorCode } from '../errors.js';

type Labels = Record<string, string>;

function labelKey(names: readonly string[], labels: Labels): string {
  return names.map((n) => labels[n] ?? '').join('\u0000');
}

function escapeLabel(value: string): string {
  return value.replace(/\\/g, '\\\\').replace(/\n/g, '\\n').replace(/"/g, '\\"');
}

function renderLabels(names: readonly string[], values: readonly string[], extra?: [string, string]): string {
  const pairs = names.map((n, i) => `${n}="${escapeLabel(values[i] ?? '')}"`);
  if (extra) pairs.push(`${extra[0]}="${escapeLabel(extra[1])}"`);
  return pairs.length ? `{${pairs.join(',')}}` : '';
}

interface Metric {
  render(): string;
}

abstract class Base implements Metric {
  constructor(
    readonly name: string,
    readonly help: string,
    readonly labelNames: readonly string[],
  ) {}
  protected header(type: string): string {
    return `# HELP ${this.name} ${this.help}\n# TYPE ${this.name} ${type}\n`;
  }
  abstract render(): string;
}

class Counter extends Base {
  private values = new Map<string, { labels: string[]; value: number }>();
  inc(labels: Labels = {}, by = 1): void {
    this.series(labels).value += by;
  }

  /**
   * One label set's series, to keep and add to: no key built per increment
   * (for code that records the same labels on every request).
   */
  series(labels: Labels = {}): { value: number } {
    const key = labelKey(this.labelNames, labels);
    let entry = this.values.get(key);
    if (!entry) this.values.set(key, (entry = { labels: this.labelNames.map((n) => labels[n] ?? ''), value: 0 }));
    return entry;
  }
  render(): string {
    let out = this.header('counter');
    for (const { labels, value } of this.values.values())
      out += `${this.name}${renderLabels(this.labelNames, labels)} ${value}\n`;
    return out;
  }
}

/**
 * Errors by their stable code (errors.ts ERROR_CODES): the label takes no
 * value outside that fixed list, whatever the errors' messages.
 */
class ErrorCounter extends Counter {
  private readonly byCode = new Map<ErrorCode, { value: number }>();

  constructor() {
    super(
      'errors_total',
      'errors met, by code (docs/ERROR-CODES.md): domain errors answered, unhandled ones, failed rule actions',
      ['code'],
    );
  }

  count(code: ErrorCode): void {
    let series = this.byCode.get(code);
    if (!series) this.byCode.set(code, (series = this.series({ code })));
    series.value++;
  }
}

/** A value read when scraped: a gauge, or a counter kept by someone else (type 'counter'). */
export class Gauge extends Base {
  constructor(
    name: string,
    help: string,
    labelNames: readonly string[],
    private readonly collect: () => Array<{ labels?: Labels; value: number }>,
    private readonly type: 'gauge' | 'counter' = 'gauge',
  ) {
    super(name, help, labelNames);
  }
  render(): string {
    let out = this.header(this.type);
    for (const { labels = {}, value } of this.collect()) {
      out += `${this.name}${renderLabels(
        this.labelNames,
        this.labelNames.map((n) => labels[n] ?? ''),
      )} ${value}\n`;
    }
    return out;
  }
}

interface HistogramSeries {
  labels: string[];
  counts: number[];
  sum: number;
  count: number;
}

class Histogram extends Base {
  private series = new Map<string, HistogramSeries>();
  constructor(
    name: string,
    help: string,
    labelNames: readonly string[],
    readonly buckets: readonly number[],
  ) {
    super(name, help, labelNames);
  }
  observe(labels: Labels, value: number): void {
    this.record(this.seriesOf(labels), value);
  }

  /** One label set's series, to keep and observe into (see Counter.series). */
  labeled(labels: Labels): { observe(value: number): void } {
    const series = this.seriesOf(labels);
    return { observe: (value) => this.record(series, value) };
  }

  private seriesOf(labels: Labels): HistogramSeries {
    const key = labelKey(this.labelNames, labels);
    let s = this.series.get(key);
    if (!s) {
      s = {
        labels: this.labelNames.map((n) => labels[n] ?? ''),
        counts: new Array(this.buckets.length).fill(0),
        sum: 0,
        count: 0,
      };
      this.series.set(key, s);
    }
    return s;
  }

  private record(s: HistogramSeries, value: number): void {
    for (let i = 0; i < this.buckets.length; i++) if (value <= this.buckets[i]!) s.counts[i]!++;
    s.sum += value;
    s.count++;
  }

  render(): string {
    let out = this.header('histogram');
    for (const s of this.series.values()) {
      this.buckets.forEach((b, i) => {
        out += `${this.name}_bucket${renderLabels(this.labelNames, s.labels, ['le', String(b)])} ${s.counts[i]}\n`;
      });
      out += `${this.name}_bucket${renderLabels(this.labelNames, s.labels, ['le', '+Inf'])} ${s.count}\n`;
      out += `${this.name}_sum${renderLabels(this.labelNames, s.labels)} ${s.sum}\n`;
      out += `${this.name}_count${renderLabels(this.labelNames, s.labels)} ${s.count}\n`;
    }
    return out;
  }
}

export class Registry {
  private metrics: Metric[] = [];
  register<T extends Metric>(metric: T): T {
    this.metrics.push(metric);
    return metric;
  }
  render(): string {
    return this.metrics.map((m) => m.render()).join('');
  }
}

const LATENCY_BUCKETS = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];

/** The metrics every part of the server records into. */
export function createServerMetrics(registry = new Registry()) {
  return {
    registry,
    httpRequests: registry.register(
      new Counter('http_requests_total', 'HTTP requests answered, by route and status', ['route', 'method', 'status']),
    ),
    errors: registry.register(new ErrorCounter()),
    httpDuration: registry.register(
      new Histogram(
        'http_request_duration_seconds',
        'HTTP request latency, from headers received to response written',
        ['route'],
        LATENCY_BUCKETS,
      ),
    ),
    inferenceDuration: registry.register(
      new Histogram(
        'inference_stage_duration_seconds',
        'time per image and pipeline stage, by model version (decode, preprocess, inference: its share of the batch run, postprocess)',
        ['model_version', 'stage'],
        LATENCY_BUCKETS,
      ),
    ),
    inferenceBatchSize: registry.register(
      new Histogram(
        'inference_batch_size',
        'requests per model run, by model version',
        ['model_version'],
        [1, 2, 4, 8, 16, 32, 64, 128, 256],
      ),
    ),
    inferenceQueueDelay: registry.register(
      new Histogram(
        'inference_queue_delay_seconds',
        'time a ready input tensor waited in the batcher before its run, by model version',
        ['model_version'],
        [0.0001, 0.00025, 0.0005, ...LATENCY_BUCKETS],
      ),
    ),
  };
}

export type ServerMetrics = ReturnType<typeof createServerMetrics>;
