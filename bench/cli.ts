// npm run bench [-- <subcommand>] [-- options]: the inference benchmark
// (run.ts) without a subcommand, or one of the subcommands of
// bench/subcommands.ts (batching, ingest, flood, ab, frames, mqtt, ...), each its own
// module; `--help` on either lists its options.
import { SUBCOMMANDS, subcommandOf } from './subcommands.js';

const name = subcommandOf(process.argv.slice(2));
await import(name ? SUBCOMMANDS[name].module : './run.js');
