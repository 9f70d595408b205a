/**
 * A task module for the pool's tests that takes 1.5 s to load, as a parser with large grammars can on
 * a busy machine: its loading is not the task's time.
 */
const loadedBy = Date.now() + 1_500;
while (Date.now() < loadedBy) {
  // Loading.
}

export function echo(input: unknown): unknown {
  return input;
}
