import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { keyBetween } from "./order.js";

describe("order keys", () => {
  it("fall strictly between their neighbours, wherever pages are inserted", () => {
    fc.assert(
      fc.property(fc.array(fc.nat(), { minLength: 1, maxLength: 200 }), (positions) => {
        const keys: string[] = [];
        for (const position of positions) {
          const index = position % (keys.length + 1);
          keys.splice(index, 0, keyBetween(keys[index - 1] ?? null, keys[index] ?? null));
        }
        expect([...keys].sort()).toEqual(keys);
        expect(new Set(keys).size).toBe(keys.length);
      }),
      { numRuns: 300 },
    );
  });

  it("stay short when pages are appended or prepended one after the other", () => {
    let last: string | null = null;
    let first: string | null = null;
    for (let i = 0; i < 10_000; i++) {
      last = keyBetween(last, null);
      first = keyBetween(null, first);
    }
    expect(last?.length).toBeLessThanOrEqual(4);
    expect(first?.length).toBeLessThanOrEqual(4);
  });

  it("refuse neighbours out of order", () => {
    expect(() => keyBetween("a1", "a0")).toThrow("out of order");
    expect(() => keyBetween("a0", "a0")).toThrow("out of order");
  });
});
