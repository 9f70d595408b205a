import { describe, expect, it } from "vitest";
import { timeOrderedIds } from "./context.js";

describe("timeOrderedIds", () => {
  it("sorts in creation order, even within one millisecond", () => {
    const fixed = { now: () => new Date("2026-01-01T00:00:00.000Z") };
    const ids = timeOrderedIds(fixed);
    const made = Array.from({ length: 1000 }, () => ids.next());
    expect([...made].sort()).toEqual(made);
    expect(new Set(made).size).toBe(made.length);
  });

  it("ends with random characters, so that two servers at the same instant never collide", () => {
    const fixed = { now: () => new Date("2026-01-01T00:00:00.000Z") };
    const [one, other] = [timeOrderedIds(fixed), timeOrderedIds(fixed)];
    // 2,000 ids each: past the random bytes drawn at once, so drawn again.
    const made = Array.from({ length: 2000 }, () => [one.next(), other.next()]).flat();
    expect(new Set(made).size).toBe(made.length);
    for (const id of made) expect(id).toMatch(/^[0-9a-z]{21}$/);
    expect(new Set(made.map((id) => id.slice(13))).size).toBe(made.length);
  });
});
