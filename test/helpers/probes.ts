// The layer and SQL checks (test/unit/layers.test.ts, sql-location.test.ts)
// write a probe module into src/ for the moment of a check; the checks that
// walk the source tree at the same time (test files run two at a time) skip
// them, or read a file that is gone by then.

/** A probe's file name (.layer-probe.ts, .sql-probe.ts): not a source. */
export const PROBE = /^\.[\w-]+-probe\.ts$/;
