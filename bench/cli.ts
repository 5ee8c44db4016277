// npm run bench [-- ingest | batching | flood | ab] [-- options]: the inference
// benchmark (run.ts), the ingestion benchmark (ingest.ts), the batching one
// (batching.ts), memory under a flood of large bodies (flood.ts) or this
// checkout against another on predict and ingestion (ab.ts).
if (process.argv.slice(2).includes('ingest')) await import('./ingest.js');
else if (process.argv.slice(2).includes('flood')) await import('./flood.js');
else if (process.argv.slice(2).includes('batching')) await import('./batching.js');
else if (process.argv.slice(2).includes('ab')) await import('./ab.js');
else await import('./run.js');
