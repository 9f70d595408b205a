import { describe, expect, it } from "vitest";
import { booleanClaims, parseSchema } from "./adaptive.js";

const keys = (text: string) => {
  const parsed = parseSchema(text);
  return "problems" in parsed ? parsed.problems.map((problem) => `${problem.at} ${problem.key}`) : [];
};

describe("the adaptive schema as typed", () => {
  it("takes a schema of attributes", () => {
    const text = JSON.stringify({
      type: "object",
      additionalProperties: false,
      properties: {
        plan: { type: "string", description: "The plan", enum: ["free", "pro"] },
        beta: { type: "boolean", description: "In the beta" },
        tags: { type: "array", description: "Tags", items: { type: "string", description: "A tag" } },
        unsigned: { type: "object", description: "Unsigned", additionalProperties: false, properties: {} },
      },
    });
    expect(parseSchema(text)).toHaveProperty("schema.properties.plan.enum", ["free", "pro"]);
  });

  it("says what is wrong, and where", () => {
    expect(keys("{")).toEqual(["claims sites.adaptive.notJson"]);
    expect(keys("[]")).toEqual(["claims sites.adaptive.notObject"]);
    expect(keys('{"type":"object","properties":{}}')).toEqual(["claims sites.adaptive.noAdditional"]);
    expect(
      keys(
        JSON.stringify({
          type: "object",
          additionalProperties: false,
          properties: {
            "1st": { type: "string", description: "" },
            plan: { type: "date", description: "" },
            seats: { type: "number" },
            list: { type: "array", description: "", items: { type: "object", description: "" } },
            group: { type: "object", description: "", properties: {} },
          },
        }),
      ),
    ).toEqual([
      "claims.1st sites.adaptive.badName",
      "claims.plan sites.adaptive.badType",
      "claims.seats sites.adaptive.noDescription",
      "claims.list.items sites.adaptive.badType",
      "claims.group sites.adaptive.closedObject",
    ]);
  });
});

describe("the boolean claims of a schema", () => {
  it("lists the boolean attributes, nested ones by their path, and skips the rest", () => {
    const schema = {
      type: "object",
      additionalProperties: false,
      properties: {
        beta: { type: "boolean", description: "In the beta" },
        plan: { type: "string", description: "The plan" },
        unsigned: {
          type: "object",
          description: "Unsigned",
          additionalProperties: false,
          properties: { trial: { type: "boolean" }, tags: { type: "array" } },
        },
        "not a name": { type: "boolean", description: "Skipped" },
      },
    };
    expect(booleanClaims(schema)).toEqual([
      { path: "beta", description: "In the beta" },
      { path: "unsigned.trial", description: "" },
    ]);
    expect(booleanClaims(undefined)).toEqual([]);
    expect(booleanClaims({ type: "object", properties: [] })).toEqual([]);
  });
});
