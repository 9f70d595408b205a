import { existsSync, readdirSync, readFileSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";

/** A relative module named by an import, export or dynamic import of a source file. */
const MODULE =
  /\bfrom\s*["'](\.{1,2}\/[^"']+)["']|\bimport\s*\(\s*["'](\.{1,2}\/[^"']+)["']\s*\)|^\s*import\s*["'](\.{1,2}\/[^"']+)["']/gm;

function sourcesUnder(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sourcesUnder(path);
    return entry.name.endsWith(".ts") ? [path] : [];
  });
}

/**
 * A source's text; "" for one gone since the directory was listed (the lint tests write probes into
 * the tree for a moment, while other test files may be reading it).
 */
function textOf(file: string): string {
  try {
    return readFileSync(file, "utf8");
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return "";
    throw error;
  }
}

/**
 * The test files under `src` (paths relative to it) that reach no database: none of the modules they
 * import, directly or through others, is `db/database.ts`. The PostgreSQL project leaves them out, for
 * they would only run the same code twice.
 */
export function databaseFreeTests(src: string): string[] {
  const database = join(src, "db", "database.ts");
  const importers = new Map<string, string[]>();
  const sources = sourcesUnder(src);
  for (const file of sources)
    for (const match of textOf(file).matchAll(MODULE)) {
      const imported = resolve(dirname(file), (match[1] ?? match[2] ?? match[3]) as string).replace(
        /\.js$/,
        ".ts",
      );
      if (!existsSync(imported)) continue;
      importers.set(imported, [...(importers.get(imported) ?? []), file]);
    }
  const reaching = new Set([database]);
  const queue = [database];
  for (let file = queue.pop(); file !== undefined; file = queue.pop())
    for (const importer of importers.get(file) ?? [])
      if (!reaching.has(importer)) {
        reaching.add(importer);
        queue.push(importer);
      }
  return sources
    .filter((file) => file.endsWith(".test.ts") && !reaching.has(file))
    .map((file) => relative(src, file));
}
