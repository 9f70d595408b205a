import { describe, expect, it } from "vitest";
import { at, changesAfter, contract, type JsonObject } from "../test/contract.js";
import { isBreaking } from "./change.js";
import { diffContracts } from "./diff.js";

const schema = (c: JsonObject, name: string) => at(c, "components", "schemas", name);
const property = (c: JsonObject, name: string, key: string) => at(schema(c, name), "properties", key);
const operation = (c: JsonObject, path: string, method: string) => at(c, "paths", path, method);
const parameters = (c: JsonObject) => operation(c, "/spaces/{spaceId}", "get").parameters as unknown[];
const limit = (c: JsonObject) => at(c, "paths", "/spaces/{spaceId}", "get", "parameters", "1");

type Case = [rule: string, edit: (c: JsonObject) => void, id: string, ourRule?: string];

// Each row: one rule of the gate, an edit that exercises it, the change it must produce and, when the
// library alone gets it wrong, the name of our rule (./rules.ts) that classifies it.
const breaking: Case[] = [
  ["operation removed", (c) => delete at(c, "paths", "/spaces/{spaceId}").patch, "removed:updateSpace"],
  [
    "path changed",
    (c) => {
      const paths = at(c, "paths");
      paths["/workspaces/{spaceId}"] = paths["/spaces/{spaceId}"];
      delete paths["/spaces/{spaceId}"];
    },
    "removed:getSpace",
  ],
  [
    "response property removed",
    (c) => delete at(schema(c, "Space"), "properties").description,
    "removed:getSpace:response.200.body.description",
    "response-property-removed",
  ],
  [
    "required response property removed",
    (c) => {
      delete at(schema(c, "Space"), "properties").title;
      schema(c, "Space").required = ["id", "visibility"];
    },
    "removed:getSpace:response.200.body.title",
  ],
  [
    "response property no longer required",
    (c) => {
      schema(c, "Space").required = ["id", "visibility"];
    },
    "removed:getSpace:response.200.body.required.title",
  ],
  [
    "response property now nullable (anyOf, as TypeSpec emits it)",
    (c) => {
      at(schema(c, "Space"), "properties").description = { anyOf: [{ type: "string" }, { type: "null" }] };
    },
    "added:getSpace:response.200.body.description.anyOf.1",
  ],
  [
    "response property now nullable (type list)",
    (c) => {
      property(c, "Space", "description").type = ["string", "null"];
    },
    "changed:getSpace:response.200.body.description.type",
    "type-change",
  ],
  [
    "response property type changed",
    (c) => {
      property(c, "Space", "count").type = "string";
    },
    "changed:getSpace:response.200.body.count.type",
    "type-change",
  ],
  [
    "request parameter type changed",
    (c) => {
      at(limit(c), "schema").type = "string";
    },
    "changed:getSpace:query.limit.type",
    "type-change",
  ],
  [
    "new required request property",
    (c) => {
      at(schema(c, "SpaceInput"), "properties").kind = { type: "string" };
      schema(c, "SpaceInput").required = ["title", "kind"];
    },
    "added:createSpace:request.body.kind",
  ],
  [
    "new required query parameter",
    (c) => parameters(c).push({ name: "sort", in: "query", required: true, schema: { type: "string" } }),
    "added:getSpace:query.sort",
  ],
  [
    "new required header",
    (c) => parameters(c).push({ name: "X-Tenant", in: "header", required: true, schema: { type: "string" } }),
    "added:getSpace:header.X-Tenant",
  ],
  [
    "request property made required",
    (c) => {
      schema(c, "SpaceInput").required = ["title", "description"];
    },
    "added:createSpace:request.body.required.description",
  ],
  [
    "parameter made required",
    (c) => {
      limit(c).required = true;
    },
    "added:getSpace:query.limit.required",
  ],
  [
    "enum value removed from a request",
    (c) => {
      schema(c, "Visibility").enum = ["public"];
    },
    "removed:createSpace:request.body.visibility.enum.private",
  ],
  [
    "enum value removed from a response",
    (c) => {
      schema(c, "Visibility").enum = ["public"];
    },
    "removed:getSpace:response.200.body.visibility.enum.private",
    "enum-value-removed",
  ],
  [
    "enum value replaced in a response",
    (c) => {
      schema(c, "Visibility").enum = ["public", "internal"];
    },
    "changed:getSpace:response.200.body.visibility.enum.private",
    "enum-value-removed",
  ],
  [
    "enum value added to a response",
    (c) => {
      schema(c, "Visibility").enum = ["public", "private", "internal"];
    },
    "added:getSpace:response.200.body.visibility.enum.internal",
  ],
  [
    "maxLength lowered on input",
    (c) => {
      property(c, "SpaceInput", "title").maxLength = 20;
    },
    "changed:createSpace:request.body.title.maxLength",
  ],
  [
    "minLength raised on input",
    (c) => {
      property(c, "SpaceInput", "title").minLength = 3;
    },
    "changed:createSpace:request.body.title.minLength",
  ],
  [
    "minItems raised on input",
    (c) => {
      property(c, "SpaceInput", "tags").minItems = 2;
    },
    "changed:createSpace:request.body.tags.minItems",
  ],
  [
    "pattern changed on input",
    (c) => {
      property(c, "SpaceInput", "slug").pattern = "^[a-z0-9]{3,}$";
    },
    "changed:createSpace:request.body.slug.pattern",
  ],
  [
    "pattern added on input",
    (c) => {
      property(c, "SpaceInput", "description").pattern = "^\\S";
    },
    "added:createSpace:request.body.description.pattern",
  ],
  [
    "maximum lowered on input",
    (c) => {
      at(limit(c), "schema").maximum = 50;
    },
    "changed:getSpace:query.limit.maximum",
  ],
  [
    "security added to an operation",
    (c) => delete operation(c, "/health", "get").security,
    "changed:getHealth:security",
    "security-requirements",
  ],
  [
    "security added to every operation",
    (c) => {
      c.security = [{ BearerAuth: [], ApiKey: [] }];
    },
    "changed:getSpace:security",
    "security-requirements",
  ],
  [
    "success status code changed",
    (c) => {
      const responses = at(operation(c, "/spaces", "post"), "responses");
      responses["200"] = responses["201"];
      delete responses["201"];
    },
    "removed:createSpace:response.201",
  ],
  [
    "success status code removed",
    (c) => {
      at(operation(c, "/spaces/{spaceId}", "get"), "responses")["404"] = { description: "Not found." };
      delete at(operation(c, "/spaces/{spaceId}", "get"), "responses")["200"];
    },
    "removed:getSpace:response.200",
  ],
];

const nonBreaking: Case[] = [
  [
    "new operation",
    (c) => {
      at(c, "paths", "/spaces/{spaceId}").delete = {
        operationId: "deleteSpace",
        responses: { "204": { description: "Deleted." } },
      };
    },
    "added:deleteSpace",
  ],
  [
    "path parameter renamed",
    (c) => {
      const paths = at(c, "paths");
      paths["/spaces/{key}"] = paths["/spaces/{spaceId}"];
      delete paths["/spaces/{spaceId}"];
      at(c, "components", "parameters", "SpaceId").name = "key";
    },
    "renamed:/spaces/{key}",
  ],
  [
    "new optional request property",
    (c) => {
      at(schema(c, "SpaceInput"), "properties").emoji = { type: "string" };
    },
    "added:createSpace:request.body.emoji",
  ],
  [
    "new optional query parameter",
    (c) => parameters(c).push({ name: "cursor", in: "query", required: false, schema: { type: "string" } }),
    "added:getSpace:query.cursor",
  ],
  [
    "new response property",
    (c) => {
      at(schema(c, "Space"), "properties").createdAt = { type: "string", format: "date-time" };
      schema(c, "Space").required = ["id", "title", "visibility", "createdAt"];
    },
    "added:getSpace:response.200.body.createdAt",
  ],
  [
    "new required read-only property in a schema requests share",
    (c) => {
      at(schema(c, "Label"), "properties").createdAt = { type: "string", readOnly: true };
      schema(c, "Label").required = ["name", "createdAt"];
    },
    "added:createSpace:request.body.labels[].createdAt",
    "one-way-property",
  ],
  [
    "maxLength raised on input",
    (c) => {
      property(c, "SpaceInput", "title").maxLength = 200;
    },
    "changed:createSpace:request.body.title.maxLength",
  ],
  [
    "minLength lowered on input",
    (c) => {
      property(c, "SpaceInput", "title").minLength = 0;
    },
    "changed:createSpace:request.body.title.minLength",
  ],
  [
    "minItems lowered on input",
    (c) => {
      property(c, "SpaceInput", "tags").minItems = 0;
    },
    "changed:createSpace:request.body.tags.minItems",
  ],
  [
    "pattern removed from input",
    (c) => delete property(c, "SpaceInput", "slug").pattern,
    "removed:createSpace:request.body.slug.pattern",
  ],
  [
    "maximum raised on input",
    (c) => {
      at(limit(c), "schema").maximum = 500;
    },
    "changed:getSpace:query.limit.maximum",
  ],
  [
    "request property now accepts null",
    (c) => {
      property(c, "SpaceInput", "description").type = ["string", "null"];
    },
    "changed:createSpace:request.body.description.type",
    "type-change",
  ],
  [
    "request parameter widened from integer to number",
    (c) => {
      at(limit(c), "schema").type = "number";
    },
    "changed:getSpace:query.limit.type",
  ],
  [
    "description changed",
    (c) => {
      property(c, "Space", "title").description = "The space's title, shown in navigation.";
    },
    "changed:getSpace:response.200.body.title.description",
  ],
  [
    "operation description changed",
    (c) => {
      operation(c, "/spaces/{spaceId}", "get").description = "Gets one space by its id.";
    },
    "changed:getSpace:description",
  ],
  [
    "example added",
    (c) => {
      property(c, "SpaceInput", "title").examples = ["Handbook"];
    },
    "added:createSpace:request.body.title.examples.Handbook",
  ],
  [
    "security removed from an operation",
    (c) => {
      operation(c, "/spaces/{spaceId}", "get").security = [];
    },
    "changed:getSpace:security",
    "security-requirements",
  ],
];

describe("breaking changes", () => {
  it.each(breaking)("%s", (_, edit, id, ourRule) => {
    const change = changesAfter(edit).find((candidate) => candidate.id === id);
    expect(change, id).toBeDefined();
    expect(change?.type).toBe("breaking");
    expect(change?.rule).toBe(ourRule);
  });
});

describe("non-breaking changes", () => {
  it.each(nonBreaking)("%s", (_, edit, id, ourRule) => {
    const changes = changesAfter(edit);
    expect(changes.map((change) => change.id)).toContain(id);
    expect(changes.filter(isBreaking)).toEqual([]);
    expect(changes.find((change) => change.id === id)?.rule).toBe(ourRule);
  });

  it("a schema renamed with the same shape changes nothing", () => {
    const changes = changesAfter((c) => {
      const schemas = at(c, "components", "schemas");
      schemas.SpaceVisibility = schemas.Visibility;
      delete schemas.Visibility;
      const ref = { $ref: "#/components/schemas/SpaceVisibility" };
      property(c, "Space", "visibility").$ref = ref.$ref;
      property(c, "SpaceInput", "visibility").$ref = ref.$ref;
    });
    expect(changes).toEqual([]);
  });
});

describe("change descriptions", () => {
  it("name the operation, location, what changed and the values", () => {
    const [change] = changesAfter((c) => {
      property(c, "SpaceInput", "title").maxLength = 20;
    }).filter((candidate) => candidate.operation?.operationId === "createSpace");
    expect(change).toEqual({
      id: "changed:createSpace:request.body.title.maxLength",
      type: "breaking",
      verb: "changed",
      operation: { path: "/spaces", method: "post", operationId: "createSpace" },
      side: "request",
      location: "request.body.title.maxLength",
      summary: "maxLength changed",
      before: 50,
      after: 20,
    });
  });

  it("fold a required property's `required` entry into the property", () => {
    const changes = changesAfter((c) => {
      delete at(schema(c, "Space"), "properties").title;
      schema(c, "Space").required = ["id", "visibility"];
    }).filter((change) => change.operation?.operationId === "getSpace");
    expect(changes.map((change) => [change.id, change.summary])).toEqual([
      ["removed:getSpace:response.200.body.title", "required property removed"],
    ]);
  });

  it("summarise nullability and parameters in words", () => {
    const summaries = changesAfter((c) => {
      at(schema(c, "Space"), "properties").description = { anyOf: [{ type: "string" }, { type: "null" }] };
      parameters(c).push({ name: "sort", in: "query", required: true, schema: { type: "string" } });
    }).map((change) => `${change.id}: ${change.summary}`);
    expect(summaries).toContain("added:getSpace:response.200.body.description.anyOf.1: now nullable");
    expect(summaries).toContain("added:getSpace:query.sort: required parameter added");
  });

  it("give ids that depend on content, not on the order of arrays or of the documents' keys", () => {
    const edit = (c: JsonObject) => {
      schema(c, "Visibility").enum = ["public"];
      at(limit(c), "schema").maximum = 50;
    };
    const reordered = contract();
    edit(reordered);
    parameters(reordered).reverse();
    const ids = changesAfter(edit).map((change) => change.id);
    expect(diffContracts(contract(), reordered).map((change) => change.id)).toEqual(ids);
    expect(ids).toContain("removed:getSpace:response.200.body.visibility.enum.private");
    expect(ids).toContain("changed:getSpace:query.limit.maximum");
    expect(new Set(ids).size).toBe(ids.length);
  });
});
