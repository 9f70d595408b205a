/** Tasks for the pool's tests, run in its threads. */

export function echo(input: unknown): unknown {
  return input;
}

/** Keeps its thread busy for `ms` milliseconds, as a pathological parse would. */
export function spin(ms: number): number {
  const end = Date.now() + ms;
  let turns = 0;
  while (Date.now() < end) turns++;
  return turns;
}

/** Holds ever more memory until the thread's heap limit stops it. */
export function hoard(): number {
  const held: number[][] = [];
  for (;;) held.push(new Array(1_000_000).fill(held.length));
}

/** Recurses until the thread's stack runs out. */
export function recurse(depth: number): number {
  return recurse(depth + 1) + 1;
}
