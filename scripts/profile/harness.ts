/**
 * What the measuring scripts of scripts/profile share (issue 25's duplicate hygiene): the server's
 * CPU time read from /proc, and the transfer chain the explorer and Otterscan measures build.
 * Each function was written twice before; the scripts import it from here.
 */
import { readFileSync, readdirSync } from 'node:fs';

/** Linux's USER_HZ: /proc/<pid>/stat counts CPU time in these ticks. */
const CLOCK_TICKS_PER_SECOND = 100;

/** utime + stime of a /proc stat line, in microseconds: fields 14 and 15, counted after the ") " that ends the thread name. */
function statCpuMicros(stat: string): number {
  const fields = stat.slice(stat.lastIndexOf(') ') + 2).split(' ');
  return ((Number(fields[11]) + Number(fields[12])) * 1_000_000) / CLOCK_TICKS_PER_SECOND;
}

/** CPU time (user + system) used so far, in microseconds, by each thread name of a process (V8's GC helpers, libuv's pool, ...). */
export function cpuByThread(pid: number): Map<string, number> {
  const byName = new Map<string, number>();
  for (const task of readdirSync(`/proc/${pid}/task`)) {
    let stat: string;
    try {
      stat = readFileSync(`/proc/${pid}/task/${task}/stat`, 'utf8');
    } catch {
      continue; // a thread that ended meanwhile
    }
    // Unnamed threads (LevelDB's background thread among them) inherit the process's name: the main thread is told apart by its id.
    const name = task === String(pid) ? 'main' : stat.slice(stat.indexOf('(') + 1, stat.lastIndexOf(')'));
    byName.set(name, (byName.get(name) ?? 0) + statCpuMicros(stat));
  }
  return byName;
}

/** CPU time (user + system) a process has used so far, in microseconds. */
export function cpuMicros(pid: number): number {
  return statCpuMicros(readFileSync(`/proc/${pid}/stat`, 'utf8'));
}
