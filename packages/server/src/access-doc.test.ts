import { readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { areas } from "./areas.js";
import { loadApiSpec } from "./spec.js";
import { inspectionServices } from "./testing/harness.js";

const DOC = join(import.meta.dirname, "..", "ACCESS.md");

/**
 * ACCESS.md: who may call each operation, as its area declares it (the rules the dispatcher checks),
 * by area. Made from the declarations, so it cannot drift: the test fails when it differs, and
 * `QUIRE_WRITE_ACCESS_DOC=1 npx vitest run src/access-doc.test.ts --project sqlite` writes it anew.
 */
function accessDocument(): string {
  const routes = new Map<string, string>();
  for (const [path, item] of Object.entries(loadApiSpec().paths))
    for (const [method, operation] of Object.entries(item))
      if (operation.operationId) routes.set(operation.operationId, `${method.toUpperCase()} ${path}`);
  const services = inspectionServices();
  const lines = [
    "# Who may call what",
    "",
    "Each operation's access rule, as its area declares it beside its handler (`<area>/handlers.ts`) and",
    "the dispatcher checks before the handler runs: 404 when the resource is hidden from the caller, 403",
    "when their role falls short. A handler may check more (the body's target, the author of a comment);",
    "its declaration says so. Made by `src/access-doc.test.ts` from the declarations.",
  ];
  for (const area of areas) {
    const ids = Object.keys(area.handlers(services)).sort();
    if (ids.length === 0) continue;
    lines.push("", `## ${area.name}`, "", "| operation | route | requires |", "|---|---|---|");
    for (const id of ids)
      lines.push(
        `| ${id} | \`${routes.get(id)}\` | ${area.access[id as keyof typeof area.access]?.requires} |`,
      );
  }
  return `${lines.join("\n")}\n`;
}

describe("ACCESS.md", () => {
  it("lists every operation's declared access rule", async () => {
    const expected = accessDocument();
    if (process.env.QUIRE_WRITE_ACCESS_DOC === "1") await writeFile(DOC, expected);
    expect(await readFile(DOC, "utf8")).toBe(expected);
  });
});
