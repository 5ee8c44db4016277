// npm run bench [-- ingest] [-- options]: the inference benchmark (run.ts)
// or, with "ingest", the ingestion benchmark (ingest.ts).
if (process.argv.slice(2).includes('ingest')) await import('./ingest.js');
else await import('./run.js');
