import { readdirSync, readFileSync } from "node:fs";

/** What the waits below read the time with; tests pass a fake one. */
export interface Clock {
  now(): number;
  sleep(ms: number): Promise<void>;
}

export const realClock: Clock = {
  now: () => performance.now(),
  sleep: (ms) => new Promise((resolve) => setTimeout(resolve, ms)),
};

export interface Found {
  /** From the call to the answer that had it; undefined when the time ran out first. */
  ms: number | undefined;
  /** Searches asked, the one that found it included. */
  polls: number;
}

/**
 * Asks `search` until `found` says its answer holds what was written: the first time at once, then `intervalMs` after
 * each answer. The time is taken when the finding answer arrives, so it is late by at most the length of one search,
 * never by the interval.
 */
export async function pollUntilFound<T>(
  search: () => Promise<T>,
  found: (answer: T) => boolean,
  options: { intervalMs: number; timeoutMs: number; clock?: Clock },
): Promise<Found> {
  const clock = options.clock ?? realClock;
  const start = clock.now();
  let polls = 0;
  for (;;) {
    const answer = await search();
    polls += 1;
    const elapsed = clock.now() - start;
    if (found(answer)) return { ms: elapsed, polls };
    if (elapsed + options.intervalMs > options.timeoutMs) return { ms: undefined, polls };
    await clock.sleep(options.intervalMs);
  }
}

export interface Idle {
  /**
   * From the call to the start of the first window below the share (the work ended within the window before it);
   * undefined when the time ran out first.
   */
  ms: number | undefined;
  /** The share of a core the last window used. */
  share: number;
}

/**
 * Waits until `cpuMs` (CPU time a process has used, cumulative) grows by less than `maxShare` of one core over a
 * whole `windowMs`. The embedding job leaves no trace the bench can read over HTTP but the CPU it takes: the encoder
 * keeps a core busy while memories wait for vectors, and an idle server only polls its job queues.
 */
export async function waitUntilIdle(
  cpuMs: () => number,
  options: { windowMs: number; maxShare: number; timeoutMs: number; clock?: Clock },
): Promise<Idle> {
  const clock = options.clock ?? realClock;
  const start = clock.now();
  let before = cpuMs();
  let at = start;
  for (;;) {
    await clock.sleep(options.windowMs);
    const now = clock.now();
    const used = cpuMs();
    const share = (used - before) / (now - at);
    if (share < options.maxShare) return { ms: at - start, share };
    if (now - start >= options.timeoutMs) return { ms: undefined, share };
    before = used;
    at = now;
  }
}

/**
 * The process group and CPU time (user + system, clock ticks) in a /proc/<pid>/stat line. The command name in
 * parentheses may hold spaces and parentheses itself, so the fields are counted from the last ")": state, ppid,
 * pgrp, … utime is the 14th field of the line and stime the 15th (proc(5)).
 */
export function parseProcStat(line: string): { pgrp: number; ticks: number } | undefined {
  const close = line.lastIndexOf(")");
  if (close < 0) return undefined;
  const fields = line
    .slice(close + 2)
    .trim()
    .split(" ");
  const [pgrp, utime, stime] = [fields[2], fields[11], fields[12]].map(Number);
  if (![pgrp, utime, stime].every((value) => Number.isInteger(value))) return undefined;
  return { pgrp: pgrp as number, ticks: (utime as number) + (stime as number) };
}

/** USER_HZ: what /proc counts CPU time in, 100 a second on every Linux the bench runs on. */
const TICKS_PER_SECOND = 100;

/**
 * CPU milliseconds used so far by the live processes of a process group (all their threads: the encoder's worker
 * threads count). Linux only; elsewhere undefined, and the caller cannot wait for the server to go quiet.
 */
export function processGroupCpuMs(pgrp: number): number | undefined {
  let names: string[];
  try {
    names = readdirSync("/proc").filter((name) => /^\d+$/.test(name));
  } catch {
    return undefined;
  }
  let ticks = 0;
  for (const name of names) {
    let line: string;
    try {
      line = readFileSync(`/proc/${name}/stat`, "utf8");
    } catch {
      continue; // gone since the listing
    }
    const stat = parseProcStat(line);
    if (stat?.pgrp === pgrp) ticks += stat.ticks;
  }
  return (ticks * 1_000) / TICKS_PER_SECOND;
}
