import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { databaseFreeTests } from "./database-free-tests.js";

const roots: string[] = [];
afterAll(() => Promise.all(roots.map((root) => rm(root, { recursive: true, force: true }))));

/** A source tree of these files under a new directory. */
async function tree(files: Record<string, string>): Promise<string> {
  const root = await mkdtemp(join(tmpdir(), "quire-db-free-"));
  roots.push(root);
  for (const [path, text] of Object.entries(files)) {
    await mkdir(dirname(join(root, path)), { recursive: true });
    await writeFile(join(root, path), text);
  }
  return root;
}

describe("databaseFreeTests", () => {
  it("leaves out every test that reaches db/database.ts, through any chain of imports", async () => {
    const root = await tree({
      "db/database.ts": "export const db = 1;\n",
      "store.ts": 'import { db } from "./db/database.js";\nexport const store = db;\n',
      "area/handlers.ts": 'export { store } from "../store.js";\n',
      "cycle/a.ts": 'import { b } from "./b.js";\nexport const a = b;\n',
      "cycle/b.ts": 'import { a } from "./a.js";\nimport "../store.js";\nexport const b = a;\n',
      "direct.test.ts": 'import { db } from "./db/database.js";\n',
      "area/deep.test.ts": 'import { store } from "./handlers.js";\n',
      "lazy.test.ts": 'const m = await import("./store.js");\n',
      "cycle/cycle.test.ts": 'import { a } from "./a.js";\n',
      "pure.test.ts": 'import { describe } from "vitest";\nimport { helper } from "./helper.js";\n',
      "helper.ts": "export const helper = 1; // not from ./db/database.js\n",
    });
    expect(databaseFreeTests(root)).toEqual(["pure.test.ts"]);
  });

  it("finds this repository's own tests that need no database, and not those that do", () => {
    const free = databaseFreeTests(join(import.meta.dirname, ".."));
    expect(free).toContain("content/order.test.ts");
    expect(free).toContain("testing/database-free-tests.test.ts");
    expect(free).not.toContain("spaces/spaces.test.ts");
    expect(free).not.toContain("crash.test.ts");
  });
});
