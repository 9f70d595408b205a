/**
 * A strong entity tag of a JSON representation: a 64-bit hash of its text, in hex. It only has to
 * change whenever the text does (two versions of one resource share a tag by a 1 in 2^64 chance);
 * it is neither a secret nor a signature, so a cryptographic digest is not needed. SHA-256 cost
 * about 5% of a GET's CPU, most of it in encoding the text for the digest; this reads the UTF-16
 * code units as they are. Two multiplicative lanes, each step a bijection of its lane (so texts that
 * differ in one unit never collide), then murmur3's finalizer on each, mixed with the other.
 */
export function entityTag(json: string): string {
  let high = 0x9e3779b9;
  let low = 0x85ebca6b;
  for (let i = 0; i < json.length; i++) {
    const unit = json.charCodeAt(i);
    high = Math.imul(high ^ unit, 0xcc9e2d51);
    low = Math.imul(low ^ unit, 0x1b873593);
  }
  high = Math.imul(high ^ (high >>> 16), 0x85ebca6b) ^ Math.imul(low ^ (low >>> 13), 0xc2b2ae35);
  low = Math.imul(low ^ (low >>> 16), 0x85ebca6b) ^ Math.imul(high ^ (high >>> 13), 0xc2b2ae35);
  return `"${hex32(high)}${hex32(low)}"`;
}

const hex32 = (n: number) => (n >>> 0).toString(16).padStart(8, "0");

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
