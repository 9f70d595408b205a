import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";

interface Schema {
  description?: string;
  properties?: Record<string, Schema>;
  allOf?: Schema[];
}
interface Operation {
  operationId?: string;
  summary?: string;
  description?: string;
  responses: Record<string, unknown>;
}

const read = (file: string) => readFileSync(new URL(file, import.meta.url), "utf8");
const openapi = JSON.parse(read("../openapi/openapi.json")) as {
  openapi: string;
  paths: Record<string, Record<string, Operation>>;
  components: { schemas: Record<string, Schema> };
};
const METHODS = ["get", "put", "post", "patch", "delete"];
const operations = Object.entries(openapi.paths).flatMap(([path, item]) =>
  Object.entries(item)
    .filter(([method]) => METHODS.includes(method))
    .map(([method, operation]) => ({ key: `${method.toUpperCase()} ${path}`, operation })),
);

describe("the compiled contract", () => {
  it("is OpenAPI 3.1", () => {
    expect(openapi.openapi).toBe("3.1.0");
  });

  it("holds every operation of the API description", () => {
    const described = read("operations.fixture.txt").split("\n").filter(Boolean);
    expect(described).toHaveLength(123);
    const compiled = new Set(operations.map((o) => o.key));
    expect(described.filter((key) => !compiled.has(key))).toEqual([]);
  });

  it("gives every operation a unique operationId, a summary, a description and a success response", () => {
    const ids = operations.map((o) => o.operation.operationId);
    expect(new Set(ids).size).toBe(ids.length);
    const incomplete = operations.filter(
      ({ operation }) =>
        !operation.operationId ||
        !operation.summary ||
        !operation.description ||
        !Object.keys(operation.responses).some((status) => status.startsWith("2")),
    );
    expect(incomplete.map((o) => o.key)).toEqual([]);
  });

  it("documents every property of every schema", () => {
    const undocumented = Object.entries(openapi.components.schemas).flatMap(([name, schema]) =>
      [schema, ...(schema.allOf ?? [])].flatMap((part) =>
        Object.entries(part.properties ?? {})
          .filter(([, property]) => !property.description)
          .map(([property]) => `${name}.${property}`),
      ),
    );
    expect(undocumented).toEqual([]);
  });
});
