// CPU time spent by the server under test, split between its own process and
// the PostgreSQL processes it started (embedded PostgreSQL runs below it in
// the process tree), read from /proc. Divided by the events of a run, it says
// where the time per event goes, which throughput alone does not: on a
// 2-core machine the load generator, the server and PostgreSQL share the CPUs.
// And a process's resident memory, from the same /proc.
import { readdirSync, readFileSync } from 'node:fs';

/** Seconds of CPU (user + system) so far. */
export interface CpuSample {
  server: number;
  /** every descendant but ffmpeg: the embedded PostgreSQL */
  database: number;
  /** descendants named ffmpeg: the readers of cameras' streams */
  ffmpeg: number;
}

/** USER_HZ: the unit of /proc/<pid>/stat times; 100 on every Linux port Node supports. */
const TICKS_PER_SECOND = 100;

interface ProcStat {
  /** the command's name (proc(5): comm) */
  name: string;
  ppid: number;
  /** own user + system ticks, all threads */
  own: number;
  /** user + system ticks of reaped children */
  reaped: number;
}

function readStat(pid: number): ProcStat | undefined {
  let text: string;
  try {
    text = readFileSync(`/proc/${pid}/stat`, 'utf8');
  } catch {
    return undefined; // gone meanwhile
  }
  // Fields after the command name, which is in parentheses and may hold spaces.
  const fields = text.slice(text.lastIndexOf(')') + 2).split(' ');
  const n = (i: number) => Number(fields[i]);
  // fields[0] is field 3 of proc(5): state; ppid is 4, utime 14, stime 15, cutime 16, cstime 17.
  const name = text.slice(text.indexOf('(') + 1, text.lastIndexOf(')'));
  return { name, ppid: n(1), own: n(11) + n(12), reaped: n(13) + n(14) };
}

/** The server's CPU and that of all its descendants; undefined where /proc is not there. */
export function sampleCpu(serverPid: number): CpuSample | undefined {
  let pids: number[];
  try {
    pids = readdirSync('/proc')
      .filter((name) => /^\d+$/.test(name))
      .map(Number);
  } catch {
    return undefined;
  }
  const stats = new Map<number, ProcStat>();
  for (const pid of pids) {
    const stat = readStat(pid);
    if (stat) stats.set(pid, stat);
  }
  const server = stats.get(serverPid);
  if (!server) return undefined;
  const children = new Map<number, number[]>();
  for (const [pid, stat] of stats) children.set(stat.ppid, [...(children.get(stat.ppid) ?? []), pid]);
  // Every descendant's own time, plus what it reaped (the postmaster reaps
  // backends that ended, so their time stays counted).
  let database = 0;
  let ffmpeg = 0;
  const queue = [...(children.get(serverPid) ?? [])];
  while (queue.length) {
    const pid = queue.pop()!;
    const stat = stats.get(pid)!;
    if (stat.name === 'ffmpeg') ffmpeg += stat.own + stat.reaped;
    else database += stat.own + stat.reaped;
    queue.push(...(children.get(pid) ?? []));
  }
  return {
    server: server.own / TICKS_PER_SECOND,
    database: database / TICKS_PER_SECOND,
    ffmpeg: ffmpeg / TICKS_PER_SECOND,
  };
}

/** CPU milliseconds (user + system, all threads) this process has used so far: for in-process benchmarks. */
export function thisProcessCpuMs(): number {
  const usage = process.cpuUsage();
  return (usage.user + usage.system) / 1000;
}

/** A process's resident memory now and its peak so far (VmRSS, VmHWM), in MiB. */
export function memory(pid: number): { rss: number; peak: number } {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = (field: string) => Number(new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(status)?.[1] ?? NaN) / 1024;
  return { rss: kb('VmRSS'), peak: kb('VmHWM') };
}
