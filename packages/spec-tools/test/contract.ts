// A minimal OpenAPI 3.1 contract for fixture tests: each test edits a fresh copy and diffs it against an
// untouched one. Shapes follow what TypeSpec emits: schemas in components behind `$ref`s, nullable as
// `anyOf` with `{ type: "null" }`, security declared once for the document.
import type { Change } from "../src/change.js";
import { diffContracts } from "../src/diff.js";

const json = (ref: string) => ({ "application/json": { schema: { $ref: `#/components/schemas/${ref}` } } });

export function contract(): JsonObject {
  return {
    openapi: "3.1.0",
    info: { title: "Fixture", version: "1.0.0" },
    security: [{ BearerAuth: [] }],
    paths: {
      "/spaces": {
        post: {
          operationId: "createSpace",
          requestBody: { required: true, content: json("SpaceInput") },
          responses: { "201": { description: "Created.", content: json("Space") } },
        },
      },
      "/spaces/{spaceId}": {
        get: {
          operationId: "getSpace",
          description: "Gets a space.",
          parameters: [
            { $ref: "#/components/parameters/SpaceId" },
            { name: "limit", in: "query", required: false, schema: { type: "integer", maximum: 100 } },
          ],
          responses: { "200": { description: "OK.", content: json("Space") } },
        },
        patch: {
          operationId: "updateSpace",
          parameters: [{ $ref: "#/components/parameters/SpaceId" }],
          requestBody: { required: true, content: json("SpaceInput") },
          responses: { "200": { description: "OK.", content: json("Space") } },
        },
      },
      "/health": {
        get: {
          operationId: "getHealth",
          security: [],
          responses: { "204": { description: "Healthy." } },
        },
      },
    },
    components: {
      parameters: {
        SpaceId: { name: "spaceId", in: "path", required: true, schema: { type: "string" } },
      },
      schemas: {
        Space: {
          type: "object",
          required: ["id", "title", "visibility"],
          properties: {
            id: { type: "string" },
            title: { type: "string", description: "The title." },
            description: { type: "string" },
            count: { type: "integer" },
            visibility: { $ref: "#/components/schemas/Visibility" },
            labels: { type: "array", items: { $ref: "#/components/schemas/Label" } },
          },
        },
        SpaceInput: {
          type: "object",
          required: ["title"],
          properties: {
            title: { type: "string", minLength: 1, maxLength: 50 },
            description: { type: "string" },
            slug: { type: "string", pattern: "^[a-z]+$" },
            tags: { type: "array", items: { type: "string" }, minItems: 1 },
            visibility: { $ref: "#/components/schemas/Visibility" },
            labels: { type: "array", items: { $ref: "#/components/schemas/Label" } },
          },
        },
        Visibility: { type: "string", enum: ["public", "private"] },
        /** Shared by requests and responses, as TypeSpec emits models with read-only properties. */
        Label: {
          type: "object",
          required: ["name"],
          properties: { name: { type: "string" } },
        },
      },
    },
  };
}

export type JsonObject = Record<string, unknown>;

/** The object at `path` in a contract, for editing in place. */
export function at(contract: JsonObject, ...path: string[]): JsonObject {
  const found = path.reduce<unknown>((parent, key) => (parent as JsonObject | undefined)?.[key], contract);
  if (typeof found !== "object" || found === null) throw new Error(`No object at ${path.join(" › ")}`);
  return found as JsonObject;
}

/** The changes from the fixture contract to a copy edited by `edit`. */
export function changesAfter(edit: (contract: JsonObject) => void): Change[] {
  const after = contract();
  edit(after);
  return diffContracts(contract(), after);
}
