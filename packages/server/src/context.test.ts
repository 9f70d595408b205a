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
});
