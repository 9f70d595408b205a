import { readdirSync, readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join, relative, sep } from "node:path";
import type { OperationId } from "@quire/api-types";
import { describe, expect, it } from "vitest";
import { areas } from "./areas.js";
import { loadApiSpec } from "./spec.js";
import { inspectionServices } from "./testing/harness.js";

/**
 * The spec area is the module: an operation declared in `spec/<area>.tsp` (or a file under
 * `spec/<area>/`) is handled in `src/<area>/`, by the area named `<area>`.
 *
 * The operations that still break the rule, operationId → why. The list only shrinks: the test fails
 * on a new mismatch and on an entry that no longer is one (remove it then). It is empty: the 16 it
 * started with (change-request comments, links, import and PDF declared in `change-requests.tsp`,
 * `listSpaceLinks` in `space-content.tsp`, `getOrganizationsForEmailDomain` in `search.tsp`) were
 * declared in the spec file of the area handling them (`comments`, `links`, `imports`, `pdf`, `sso`).
 */
const knownExceptions: Partial<Record<OperationId, string>> = {};

const specDirectory = dirname(dirname(createRequire(import.meta.url).resolve("@quire/spec/openapi.json")));

/** The area of each operation by the TypeSpec source that declares it: `@operationId("…")` in `spec/`. */
function declaringSpecArea(): Map<string, string> {
  const declared = new Map<string, string>();
  const visit = (directory: string) => {
    for (const entry of readdirSync(directory, { withFileTypes: true })) {
      const path = join(directory, entry.name);
      if (entry.isDirectory()) {
        if (entry.name !== "node_modules" && entry.name !== "openapi") visit(path);
        continue;
      }
      if (!entry.name.endsWith(".tsp")) continue;
      // `spec/teams.tsp` declares area `teams`; `spec/sites/pages.tsp` declares area `sites`.
      const [first] = relative(specDirectory, path).split(sep);
      const area = (first as string).replace(/\.tsp$/, "");
      for (const match of readFileSync(path, "utf8").matchAll(/@operationId\(\s*"([^"]+)"\s*\)/g)) {
        const id = match[1] as string;
        const previous = declared.get(id);
        if (previous) throw new Error(`${id} is declared in both spec/${previous} and spec/${area}`);
        declared.set(id, area);
      }
    }
  };
  visit(specDirectory);
  return declared;
}

const services = inspectionServices();

/** The area that handles (or still leaves pending) each operation. */
function handlingArea(): Map<string, string> {
  const handled = new Map<string, string>();
  for (const area of areas) {
    for (const id of [...Object.keys(area.handlers(services)), ...area.pending]) handled.set(id, area.name);
  }
  return handled;
}

describe("spec areas", () => {
  const declared = declaringSpecArea();
  const handled = handlingArea();

  it("find every operation of the contract in the TypeSpec source", () => {
    const operationIds = Object.values(loadApiSpec().paths).flatMap((item) =>
      Object.values(item).flatMap((operation) => (operation.operationId ? [operation.operationId] : [])),
    );
    expect([...declared.keys()].sort()).toEqual([...operationIds].sort());
    expect([...handled.keys()].sort()).toEqual([...operationIds].sort());
  });

  it("are folder and name of the area handling each operation, but for the known exceptions", () => {
    const mismatches = [...declared]
      .filter(([id, specArea]) => handled.get(id) !== specArea)
      .map(([id, specArea]) => `${id}: declared in spec/${specArea}, handled in src/${handled.get(id)}/`)
      .sort();
    const expected = Object.keys(knownExceptions)
      .map((id) => `${id}: declared in spec/${declared.get(id)}, handled in src/${handled.get(id)}/`)
      .sort();
    expect(mismatches).toEqual(expected);
  });

  it("name every area after its folder, whose area.ts exports it", async () => {
    const misplaced: string[] = [];
    for (const area of areas) {
      const entry: Record<string, unknown> = await import(`./${area.name}/area.ts`).catch(() => ({}));
      if (!Object.values(entry).includes(area)) misplaced.push(area.name);
    }
    expect(misplaced).toEqual([]);
  });
});
