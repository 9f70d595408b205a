/**
 * A map that forgets the least recently used entries once their total weight passes `limit`: by
 * default each entry weighs 1, so the limit is a count; a `weigh` of bytes makes it a memory bound.
 */
export class RecentlyUsed<V> {
  readonly #entries = new Map<string, { value: V; weight: number }>();
  #weight = 0;

  constructor(
    readonly limit: number,
    readonly weigh: (value: V) => number = () => 1,
  ) {}

  get(key: string): V | undefined {
    const entry = this.#entries.get(key);
    if (entry === undefined) return undefined;
    this.#entries.delete(key);
    this.#entries.set(key, entry);
    return entry.value;
  }

  delete(key: string): void {
    const entry = this.#entries.get(key);
    if (entry === undefined) return;
    this.#entries.delete(key);
    this.#weight -= entry.weight;
  }

  set(key: string, value: V): void {
    const previous = this.#entries.get(key);
    if (previous) {
      this.#weight -= previous.weight;
      this.#entries.delete(key);
    }
    const weight = this.weigh(value);
    this.#entries.set(key, { value, weight });
    this.#weight += weight;
    for (const [oldest, entry] of this.#entries) {
      if (this.#weight <= this.limit || oldest === key) break;
      this.#entries.delete(oldest);
      this.#weight -= entry.weight;
    }
  }
}
