import { describe, expect, it } from "vitest";
import { type Claims, conditionHolds, InvalidCondition, parseCondition } from "./conditions.js";

const claims: Claims = {
  isBetaUser: true,
  plan: "pro",
  seats: 12,
  roles: ["admin", "editor"],
  org: { region: "eu", tier: 2 },
  "x-team": "docs",
  empty: "",
  nothing: null,
  unsigned: { country: "FR" },
};

describe("conditions: evaluation", () => {
  const cases: Array<[string, boolean]> = [
    ["visitor.claims.isBetaUser == true", true],
    ["visitor.claims.isBetaUser", true],
    ["!visitor.claims.isBetaUser", false],
    ["visitor.claims.plan === 'pro'", true],
    ['visitor.claims.plan !== "pro"', false],
    ["visitor.claims.plan == 'free' || visitor.claims.plan == 'pro'", true],
    ["visitor.claims.plan == 'pro' && visitor.claims.seats > 20", false],
    ["visitor.claims.seats >= 12 && visitor.claims.seats <= 12", true],
    ["visitor.claims.seats < 5", false],
    ["-visitor.claims.seats < 0", true],
    ["visitor.claims.seats == '12'", true],
    ["visitor.claims.seats === '12'", false],
    ["visitor.claims.roles.includes('admin')", true],
    ["visitor.claims.roles.includes('owner')", false],
    ["['pro', 'team'].includes(visitor.claims.plan)", true],
    ["['free'].includes(visitor.claims.plan)", false],
    ["visitor.claims.plan.includes('r')", true],
    ["visitor.claims.org.region == 'eu'", true],
    ["visitor.claims.org['tier'] > 1", true],
    ["visitor.claims['x-team'] == 'docs'", true],
    ["visitor.claims.roles[0] == 'admin'", true],
    ["visitor.claims.roles.length == 2", true],
    ["visitor.claims.unsigned.country == 'FR'", true],
    ["visitor.claims?.org?.region == 'eu'", true],
    ["visitor.claims.missing", false],
    ["visitor.claims.missing.deeper == 1", false],
    ["visitor.claims.missing == null", true],
    ["visitor.claims.nothing ?? true", true],
    ["visitor.claims.empty || 'fallback'", true],
    ["visitor.claims.empty", false],
    ["visitor.claims.isBetaUser ? visitor.claims.seats > 10 : false", true],
    ["visitor.claims.org == visitor.claims.org", true],
    ["visitor.claims.org > visitor.claims.roles", false],
    ["visitor.claims.roles == 'admin,editor'", false],
    ["true", true],
    ["0", false],
    ["", true],
  ];
  it.each(cases)("%s → %s", (expression, expected) => {
    expect(conditionHolds(expression, claims)).toBe(expected);
  });

  it("holds with no condition, and hides on claims-less visitors", () => {
    expect(conditionHolds(null, {})).toBe(true);
    expect(conditionHolds(undefined, {})).toBe(true);
    expect(conditionHolds("visitor.claims.isBetaUser == true", {})).toBe(false);
  });

  it("never reads inherited properties of the claims", () => {
    expect(conditionHolds("visitor.claims.toString", claims)).toBe(false);
    expect(conditionHolds("visitor.claims.hasOwnProperty", {})).toBe(false);
    expect(conditionHolds("visitor.claims.plan.length == 3", claims)).toBe(false);
    expect(conditionHolds("visitor.claims.roles.includes", claims)).toBe(false);
  });
});

describe("conditions: refused expressions", () => {
  const refused: string[] = [
    // not an expression, or several
    "visitor.claims.a ==",
    "(visitor.claims.a",
    "visitor.claims.a; visitor.claims.b",
    "visitor.claims.a, visitor.claims.b",
    "visitor.claims.a = 1",
    "`template`",
    "() => 1",
    // identifiers other than visitor.claims
    "isBetaUser",
    "visitor",
    "visitor.other.a",
    "process.exit(1)",
    "globalThis.process",
    "this.constructor",
    "undefined",
    // prototype walking
    "visitor.claims.__proto__",
    "visitor.claims['__proto__']",
    "visitor.claims.constructor",
    "visitor.claims.constructor.constructor('return process')()",
    "visitor.claims.a.prototype",
    "visitor['constructor']",
    // calls other than includes, and computed names
    "visitor.claims.roles.map(x)",
    "visitor.claims.roles.includes()",
    "visitor.claims.roles.includes('a', 'b')",
    "visitor.claims.roles['includes']('a')",
    "eval('1')",
    "Function('return 1')()",
    "new Function('return 1')",
    "visitor.claims[visitor.claims.key]",
    "visitor.claims[1 + 1]",
    // operators outside the language
    "visitor.claims.a + 1 > 2",
    "visitor.claims.a | 1",
    "~visitor.claims.a",
    "+visitor.claims.a",
    "typeof visitor.claims.a",
    "visitor.claims.a in visitor.claims",
    "[1, , 2].includes(1)",
  ];
  it.each(refused)("%s", (expression) => {
    expect(() => parseCondition(expression)).toThrow(InvalidCondition);
    expect(conditionHolds(expression, claims)).toBe(false);
  });

  it("refuses without touching the prototype", () => {
    const before = Object.getOwnPropertyNames(Object.prototype).length;
    conditionHolds("visitor.claims.__proto__.polluted = 1", {});
    conditionHolds("visitor.claims['__proto__']['polluted']", {});
    expect(Object.getOwnPropertyNames(Object.prototype).length).toBe(before);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });
});
