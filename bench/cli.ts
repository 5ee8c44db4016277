// npm run bench [-- ingest | batching] [-- options]: the inference benchmark
// (run.ts), the ingestion benchmark (ingest.ts) or the batching one (batching.ts).
if (process.argv.slice(2).includes('ingest')) await import('./ingest.js');
else if (process.argv.slice(2).includes('batching')) await import('./batching.js');
else await import('./run.js');
