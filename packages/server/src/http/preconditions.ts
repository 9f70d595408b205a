import { hash } from "node:crypto";

/** A strong entity tag of a JSON representation: its SHA-256, 162 bits of it. */
export const entityTag = (json: string) => `"${hash("sha256", json, "base64url").slice(0, 27)}"`;

/**
 * Whether an `If-Match` header holds for the representation tagged `current`: `*`, or one of its
 * tags equal to it (strong comparison: a weak tag never matches).
 */
export function ifMatchHolds(header: string, current: string): boolean {
  if (header.trim() === "*") return true;
  return header.split(",").some((tag) => tag.trim() === current);
}

/**
 * Runs tasks with the same key one after the other, in the order they came: an `If-Match` check
 * and the write it guards then see no other guarded write of the same resource in between.
 */
export class KeyedQueue {
  readonly #tails = new Map<string, Promise<unknown>>();

  run<T>(key: string, task: () => Promise<T>): Promise<T> {
    const previous = this.#tails.get(key) ?? Promise.resolve();
    const result = previous.then(task, task);
    const tail = result.catch(() => {});
    this.#tails.set(key, tail);
    void tail.then(() => {
      if (this.#tails.get(key) === tail) this.#tails.delete(key);
    });
    return result;
  }
}
