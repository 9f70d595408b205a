import { readdirSync, readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { STATUS_TYPES } from "@quire/api-types";
import { describe, expect, it } from "vitest";
import { loadApiSpec } from "../spec.js";

const contract = loadApiSpec() as ReturnType<typeof loadApiSpec> & {
  components: { schemas: { ErrorType: { enum: string[] } } };
};
const listed = contract.components.schemas.ErrorType.enum;

/** Statuses the server answers without the contract declaring them per operation. */
const UNDECLARED = [405, 410, 500, 501, 503];

describe("error types", () => {
  it("gives every error status the server answers a generic type the contract lists", () => {
    const declared = Object.values(contract.paths)
      .flatMap((operations) => Object.values(operations))
      .flatMap((operation) => Object.keys((operation as { responses?: object }).responses ?? {}))
      .map(Number)
      .filter((status) => status >= 400);
    for (const status of new Set([...declared, ...UNDECLARED]))
      expect(listed).toContain(STATUS_TYPES[status]);
    for (const type of Object.values(STATUS_TYPES)) expect(listed).toContain(type);
  });

  // The compiler proves the converse: a specific type is an `ErrorType`, generated from the contract.
  it("lists no type the server never writes", () => {
    const src = fileURLToPath(new URL("..", import.meta.url));
    const sources = readdirSync(src, { recursive: true, encoding: "utf8" })
      .filter((file) => file.endsWith(".ts") && !file.endsWith(".test.ts"))
      .map((file) => readFileSync(`${src}/${file}`, "utf8"))
      .join("\n");
    const generic = new Set<string>(Object.values(STATUS_TYPES));
    const written = listed.filter((type) => generic.has(type) || sources.includes(`"${type}"`));
    expect(written).toEqual(listed);
  });
});
