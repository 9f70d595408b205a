import { describe, expect, it } from "vitest";
import { claimCondition, conditionChange, sectionChanges, withClaim } from "./conditions.js";

describe("conditions as the Edit dialogs write them", () => {
  it("tests a boolean claim, added to what is typed with &&", () => {
    expect(claimCondition("beta")).toBe("visitor.claims.beta == true");
    expect(claimCondition("unsigned.trial")).toBe("visitor.claims.unsigned.trial == true");
    expect(withClaim("", "beta")).toBe("visitor.claims.beta == true");
    expect(withClaim("  ", "beta")).toBe("visitor.claims.beta == true");
    expect(withClaim("visitor.claims.beta == true ", "staff")).toBe(
      "visitor.claims.beta == true && visitor.claims.staff == true",
    );
  });

  it("sends a condition only when it changed, and null when it was emptied", () => {
    expect(conditionChange(undefined, "")).toEqual({});
    expect(conditionChange(undefined, "   ")).toEqual({});
    expect(conditionChange("visitor.claims.a", " visitor.claims.a ")).toEqual({});
    expect(conditionChange(undefined, " visitor.claims.a ")).toEqual({ condition: "visitor.claims.a" });
    expect(conditionChange("visitor.claims.a", "visitor.claims.b")).toEqual({
      condition: "visitor.claims.b",
    });
    expect(conditionChange("visitor.claims.a", " ")).toEqual({ condition: null });
  });

  it("sends only the section's fields that changed", () => {
    const section = { title: "Guide", path: "guide" };
    const unchanged = { title: " Guide ", path: "guide", condition: "" };
    expect(sectionChanges(section, unchanged)).toEqual({});
    expect(sectionChanges(section, { ...unchanged, title: "Handbook" })).toEqual({ title: "Handbook" });
    expect(sectionChanges(section, { ...unchanged, path: "docs", condition: "visitor.claims.a" })).toEqual({
      path: "docs",
      condition: "visitor.claims.a",
    });
    expect(sectionChanges({ ...section, condition: "visitor.claims.a" }, unchanged)).toEqual({
      condition: null,
    });
  });
});
