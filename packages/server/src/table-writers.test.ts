import { readdirSync, readFileSync } from "node:fs";
import { join, relative, sep } from "node:path";
import { describe, expect, it } from "vitest";

/**
 * Each table has one writing area: the statements that insert, update or delete its rows live in one
 * area folder. A write that spans areas is a command in `commands/` calling each area's function. The
 * kernel's own tables (jobs, revisions, tokens, ...) are written by the kernel, and commands may write
 * them too. Read from the source: `insertInto("x")`, `updateTable("x")`, `deleteFrom("x")`,
 * `.into("x")`, `updateById(db, "x", ...)` and raw `insert into x` / `update x set` / `delete from x`.
 */

/** Kernel folders and the kernel modules at `src/` (see "Layers" in the README): one writer, `kernel`. */
const KERNEL = new Set([
  "http",
  "db",
  "auth",
  "content",
  "jobs",
  "net",
  "limits",
  "idempotency",
  "blobs",
  "workers",
  "access.ts",
  "policy.ts",
  "context.ts",
  "services.ts",
  "area.ts",
  "urls.ts",
  "logging.ts",
  "config.ts",
  "spec.ts",
]);

/** Not production code: tests, test support, benchmarks and their seeding, fuzzing, schema migrations. */
const notProduction = (path: string) =>
  /\.test\.ts$|(^|\/)testing(\.ts$|\/)|(^|\/)(bench|fuzz|generated)\/|(^|\/)bench\.ts$|\/migrations\//.test(
    path,
  );

/**
 * Writes whose table is a variable, with the tables they reach: a new one fails the test until it is
 * listed here. `db/update.ts` (`updateById`) is counted at its callers, which name the table.
 */
const DYNAMIC_WRITES: Record<string, string[]> = {
  "db/update.ts": [],
  "content/tree.ts": ["collections", "spaces"],
  "sites/structure.ts": ["site_sections", "site_section_groups", "site_spaces"],
  "sites/store.ts": ["sites", "site_share_links", "site_sections", "site_section_groups", "site_spaces"],
};

/**
 * Tables written from more than one place, each with its exact writers (so that the list shrinks as
 * they move, and a further writer still fails) and the reason.
 */
const EXCEPTIONS: Record<string, { writers: string[]; reason: string }> = {
  collections: {
    writers: ["collections", "kernel"],
    reason:
      "content/tree.ts owns where collections and spaces sit (organization, parent, position: one order " +
      "for both kinds among siblings): it renumbers, promotes the children of a deleted collection and moves " +
      "a subtree into another organization",
  },
  spaces: {
    writers: ["kernel", "spaces"],
    reason: "as collections",
  },
};

const WRITE_CALL =
  /\b(?:insertInto|updateTable|deleteFrom|replaceInto|mergeInto|into)\(\s*"([a-z_]+)(?:\s+as\s+\w+)?"|\bupdateById\(\s*[\w.]+\s*,\s*"([a-z_]+)"/g;
const DYNAMIC_CALL = /\b(?:insertInto|updateTable|deleteFrom|replaceInto|mergeInto)\(\s*[A-Za-z_(]/g;
const RAW_WRITE =
  /\b(?:insert\s+into|delete\s+from|update)\s+([a-z_]+)\b(?:\s+\w+)?(?:\s+set\b|\s*\(|\s+values\b|\s+where\b)?/gi;

/** The writer a file counts as: its area folder, `commands`, or `kernel`. */
function writerOf(path: string): string {
  const [first = path] = path.split("/");
  return KERNEL.has(first) ? "kernel" : first;
}

interface Write {
  file: string;
  table: string;
}

/** The table writes in `source` (a file at `file`, relative to `src/`); raw SQL only on known tables. */
function writesIn(file: string, source: string, tables: ReadonlySet<string>): Write[] {
  const writes: Write[] = [];
  for (const match of source.matchAll(WRITE_CALL)) writes.push({ file, table: match[1] ?? match[2] ?? "" });
  for (const match of source.matchAll(/sql(?:<[^`]*>)?`([^`]*)`/g)) {
    for (const raw of (match[1] ?? "").matchAll(RAW_WRITE)) {
      const table = raw[1]?.toLowerCase() ?? "";
      if (tables.has(table)) writes.push({ file, table });
    }
  }
  if (source.match(DYNAMIC_CALL)) {
    const declared = DYNAMIC_WRITES[file];
    if (!declared) throw new Error(`${file} writes a table named by a variable: list it in DYNAMIC_WRITES`);
    for (const table of declared) writes.push({ file, table });
  }
  return writes;
}

/** Writers by table. */
function writersByTable(writes: readonly Write[]): Map<string, Set<string>> {
  const writers = new Map<string, Set<string>>();
  for (const { file, table } of writes) {
    const set = writers.get(table) ?? new Set<string>();
    set.add(writerOf(file));
    writers.set(table, set);
  }
  return writers;
}

/**
 * What breaks the rule: a table with two area writers, a kernel table written by an area, an area
 * table written by `commands/` (which calls the area instead), unless listed in `exceptions` with
 * exactly these writers.
 */
function violations(
  writers: ReadonlyMap<string, ReadonlySet<string>>,
  exceptions: Record<string, { writers: string[] }> = EXCEPTIONS,
): string[] {
  const found: string[] = [];
  for (const [table, set] of [...writers].sort(([a], [b]) => a.localeCompare(b))) {
    const sorted = [...set].sort();
    const exception = exceptions[table];
    if (exception) {
      if (sorted.join() !== [...exception.writers].sort().join())
        found.push(
          `${table}: written by ${sorted.join(", ")}; its exception lists ${exception.writers.join(", ")}`,
        );
      continue;
    }
    const areas = sorted.filter((w) => w !== "kernel" && w !== "commands");
    if (set.has("kernel") ? areas.length > 0 : areas.length > 1 || set.has("commands"))
      found.push(`${table}: written by ${sorted.join(", ")}`);
  }
  return found;
}

function productionFiles(directory: string, root = directory): string[] {
  const files: string[] = [];
  for (const entry of readdirSync(directory, { withFileTypes: true })) {
    const path = join(directory, entry.name);
    if (entry.isDirectory()) files.push(...productionFiles(path, root));
    else if (entry.name.endsWith(".ts")) {
      const file = relative(root, path).split(sep).join("/");
      if (!notProduction(file)) files.push(file);
    }
  }
  return files;
}

function scan(): Map<string, Set<string>> {
  const sources = productionFiles(import.meta.dirname).map((file) => ({
    file,
    source: readFileSync(join(import.meta.dirname, file), "utf8"),
  }));
  const literal = new Set<string>();
  for (const { source } of sources)
    for (const m of source.matchAll(WRITE_CALL)) literal.add(m[1] ?? m[2] ?? "");
  return writersByTable(sources.flatMap(({ file, source }) => writesIn(file, source, literal)));
}

describe("each table has one writing area", () => {
  const writers = scan();

  it("finds the writes of the production code", () => {
    const lines = [...writers]
      .sort(([a], [b]) => a.localeCompare(b))
      .map(
        ([table, set]) =>
          `${table}: ${[...set].sort().join(", ")}${EXCEPTIONS[table] ? "  (exception)" : ""}`,
      );
    console.log(`Table writers:\n${lines.join("\n")}`);
    expect(writers.size).toBeGreaterThan(30);
    expect([...(writers.get("memberships") ?? [])]).toEqual(["members"]);
    expect([...(writers.get("content_permissions") ?? [])]).toEqual(["permissions"]);
    expect([...(writers.get("organizations") ?? [])]).toEqual(["organizations"]);
    expect([...(writers.get("team_members") ?? [])]).toEqual(["teams"]);
  });

  it("has no second writer of a table, but the exceptions listed with their reason", () => {
    expect(violations(writers)).toEqual([]);
    for (const [table, { reason }] of Object.entries(EXCEPTIONS)) {
      expect(writers.has(table), table).toBe(true);
      expect(reason.length, table).toBeGreaterThan(10);
    }
  });

  it("fails on a second writer", () => {
    const tables = new Set(["memberships", "jobs"]);
    const writes = [
      ...writesIn("members/store.ts", 'db.insertInto("memberships").values(row)', tables),
      ...writesIn("invites/store.ts", 'tx\n  .updateTable("memberships as m")\n  .set({ role })', tables),
      ...writesIn(
        "users/store.ts",
        "await sql`delete from memberships where user_id = 1`.execute(db)",
        tables,
      ),
      ...writesIn("jobs/queue.ts", 'db.deleteFrom("jobs")', tables),
      ...writesIn("commands/x.ts", 'tx.updateTable("jobs")', tables),
      ...writesIn("spaces/tasks.ts", '.insertInto("jobs")', tables),
    ];
    expect(violations(writersByTable(writes), {})).toEqual([
      "jobs: written by commands, kernel, spaces",
      "memberships: written by invites, members, users",
    ]);
    expect(() => writesIn("teams/store.ts", "db.deleteFrom(table)", tables)).toThrow(/DYNAMIC_WRITES/);
  });

  it("lets commands write the kernel's tables, and one area its own", () => {
    const writes = [
      { file: "jobs/queue.ts", table: "jobs" },
      { file: "commands/merge.ts", table: "jobs" },
      { file: "members/store.ts", table: "memberships" },
      { file: "members/handlers.ts", table: "memberships" },
    ];
    expect(violations(writersByTable(writes), {})).toEqual([]);
    expect(
      violations(writersByTable([...writes, { file: "commands/x.ts", table: "memberships" }]), {}),
    ).toEqual(["memberships: written by commands, members"]);
  });
});
