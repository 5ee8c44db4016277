// What a process holds of the host's memory now: its resident set (VmRSS in
// /proc/<pid>/status), the memory that pressing on the host's would take.
// Linux only, as the memory limits of the processes it measures are; 0
// where it cannot be read (the process is gone, or no /proc).
import { readFileSync } from 'node:fs';

export function residentBytes(pid: number): number {
  try {
    const kib = /^VmRSS:\s+(\d+) kB$/m.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1];
    return kib === undefined ? 0 : Number(kib) * 1024;
  } catch {
    return 0;
  }
}
