// The server's child processes as the kernel shows them (/proc): which of
// them are model instance processes, what each holds resident and what
// environment it was given. Linux only, as the server's isolation is.
import { readdirSync, readFileSync } from 'node:fs';

/** resident memory of a process now (VmRSS), in bytes; 0 once it is gone */
export function residentBytes(pid: number): number {
  try {
    return Number(/VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? 0) * 1024;
  } catch {
    return 0;
  }
}

/** CPU time a process has used so far (utime + stime), in clock ticks; 0 once it is gone. */
export function cpuTicks(pid: number): number {
  // Fields after the command (which may hold spaces) in parentheses: state is the 3rd, utime the 14th.
  const fields = (read(`/proc/${pid}/stat`) ?? '').split(') ')[1]?.split(' ') ?? [];
  return Number(fields[11] ?? 0) + Number(fields[12] ?? 0);
}

function read(path: string): string | undefined {
  try {
    return readFileSync(path, 'utf8');
  } catch {
    return undefined; // gone meanwhile
  }
}

/** The pids of `parent`'s children whose command line contains `entry`. */
function childProcesses(parent: number, entry: string): number[] {
  const pids: number[] = [];
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    const ppid = /PPid:\s+(\d+)/.exec(read(`/proc/${name}/status`) ?? '')?.[1];
    if (Number(ppid) !== parent) continue;
    if ((read(`/proc/${name}/cmdline`) ?? '').includes(entry)) pids.push(Number(name));
  }
  return pids;
}

/** A server's model instance processes (instance-entry.ts). */
export const instanceProcesses = (serverPid: number) => childProcesses(serverPid, 'instance-entry');

/** The environment a process was started with, as NAME → value. */
export function environmentOf(pid: number): Map<string, string> {
  const entries = (read(`/proc/${pid}/environ`) ?? '').split('\0').filter((e) => e !== '');
  return new Map(entries.map((e) => [e.slice(0, e.indexOf('=')), e.slice(e.indexOf('=') + 1)]));
}
