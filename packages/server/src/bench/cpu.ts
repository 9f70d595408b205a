import { readdirSync, readFileSync } from "node:fs";

/**
 * CPU time a bench's work took, by who spent it: what a write costs whatever the machine's spare
 * capacity, where a latency at a rate also measures the queues of a machine near its limit.
 */

/** CPU time in µs of the calling thread (user and system): the server's, when the load comes from a worker. */
export function threadCpuMicros(): number {
  const { user, system } = process.threadCpuUsage();
  return user + system;
}

/** Linux's clock ticks a second, in which /proc gives a process's CPU time (`getconf CLK_TCK`). */
const TICKS_A_SECOND = 100;

/**
 * CPU time in µs of the PostgreSQL processes on this machine (Linux's /proc: user and system time of
 * every process named `postgres`, its backends and background processes), or undefined when there is
 * none to read: a server elsewhere, or no /proc. Another database's clients on the same server count too.
 */
export function postgresCpuMicros(): number | undefined {
  let entries: string[];
  try {
    entries = readdirSync("/proc");
  } catch {
    return undefined;
  }
  let ticks = 0;
  let seen = false;
  for (const entry of entries) {
    if (!/^\d+$/.test(entry)) continue;
    let stat: string;
    try {
      stat = readFileSync(`/proc/${entry}/stat`, "utf8");
    } catch {
      continue; // ended since the listing
    }
    // "pid (comm) state …": utime and stime are the 12th and 13th fields after the comm's ")".
    const close = stat.lastIndexOf(")");
    if (stat.slice(stat.indexOf("(") + 1, close) !== "postgres") continue;
    const fields = stat.slice(close + 2).split(" ");
    ticks += Number(fields[11]) + Number(fields[12]);
    seen = true;
  }
  return seen ? (ticks * 1e6) / TICKS_A_SECOND : undefined;
}
