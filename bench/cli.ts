// npm run bench [-- ingest | batching | flood | ab | frames] [-- options]: the
// inference benchmark (run.ts), the ingestion benchmark (ingest.ts), the
// batching one (batching.ts), memory under a flood of large bodies
// (flood.ts), this checkout against another on predict and ingestion
// (ab.ts), or camera frames with a crash round (frames.ts).
if (process.argv.slice(2).includes('ingest')) await import('./ingest.js');
else if (process.argv.slice(2).includes('flood')) await import('./flood.js');
else if (process.argv.slice(2).includes('batching')) await import('./batching.js');
else if (process.argv.slice(2).includes('ab')) await import('./ab.js');
else if (process.argv.slice(2).includes('frames')) await import('./frames.js');
else await import('./run.js');
