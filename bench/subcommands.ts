// The subcommands of `npm run bench` (bench/cli.ts), in one table: the
// dispatcher runs a subcommand's module from it, and `npm run bench --
// --help` lists it, so neither can miss one. No subcommand: the inference
// benchmark (run.ts).

export interface Subcommand {
  /** the module that runs it when imported, relative to bench/ */
  module: string;
  /** one line for --help */
  summary: string;
}

export const SUBCOMMANDS = {
  batching: {
    module: './batching.js',
    summary: 'the dynamic batcher off against on, the model and pipeline limits, an overload run',
  },
  ingest: {
    module: './ingest.js',
    summary: 'durable ingestion: throughput, CPU per event, acknowledgement latency at a target load',
  },
  flood: {
    module: './flood.js',
    summary: "the server's memory under a flood of large bodies, beside another checkout",
  },
  ab: {
    module: './ab.js',
    summary: 'this checkout against another: trivial endpoint, predict and ingestion, alternating',
  },
  frames: { module: './frames.js', summary: "cameras' frames: frames/s, p99 latency, and a SIGKILL crash round" },
  streams: {
    module: './streams.js',
    summary:
      "cameras' streams read by the server: streams held, CPU per stream, latency, tracking's cost, a crash round",
  },
  decode: {
    module: './decode.js',
    summary: 'JPEG decoding per image through each decoder, in process (--against: beside another checkout)',
  },
  oip: {
    module: './oip.js',
    summary: "the Open Inference Protocol's ways in (REST JSON, REST binary, gRPC, gRPC streaming) against /v1 predict",
  },
  postprocess: {
    module: './postprocess.js',
    summary: "postprocess's CPU per image, in process, on a dense head's outputs (--against: beside another checkout)",
  },
  pipeline: {
    module: './pipeline.js',
    summary:
      "a version's child stages (the demo pipeline) against the same work as separate predicts: req/s, crops/s, time per stage",
  },
  mqtt: {
    module: './mqtt.js',
    summary:
      'MQTT QoS 1 ingestion against HTTP single events, idle connections, SIGKILL crash rounds (nothing PUBACKed lost), and broker mode through a Mosquitto',
  },
} as const satisfies Record<string, Subcommand>;

export type SubcommandName = keyof typeof SUBCOMMANDS;

/** The subcommand named among the arguments (the first in the table's order), if any. */
export function subcommandOf(args: readonly string[]): SubcommandName | undefined {
  return (Object.keys(SUBCOMMANDS) as SubcommandName[]).find((name) => args.includes(name));
}

/** The --help lines that list the subcommands. */
export function subcommandsHelp(): string {
  const width = Math.max(...Object.keys(SUBCOMMANDS).map((name) => name.length));
  return Object.entries(SUBCOMMANDS)
    .map(([name, { summary }]) => `  npm run bench -- ${name.padEnd(width)} [--help]   ${summary}\n`)
    .join('');
}
