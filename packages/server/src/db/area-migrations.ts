import { readdirSync } from "node:fs";
import { basename, extname, join, relative } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import type { Migration, MigrationProvider } from "kysely/migration";

/** The package's source root: `src/` under vitest, `dist/` once built. */
const SOURCE_ROOT = fileURLToPath(new URL("..", import.meta.url));

/**
 * The migrations of every area, each in `<area>/migrations/<name>.ts` (`.js` once built) under
 * `root`, so that areas add theirs without touching a shared list. A name is the file name without
 * its extension; names hold no other dot, which leaves out tests (`x.test.ts`) and declarations
 * (`x.d.ts`). Names must be unique across areas: the database records migrations by name alone.
 */
export function areaMigrations(root = SOURCE_ROOT): MigrationProvider {
  return {
    async getMigrations() {
      const files = new Map<string, string>();
      for (const entry of readdirSync(root, { recursive: true, withFileTypes: true })) {
        const extension = extname(entry.name);
        const name = basename(entry.name, extension);
        if (!entry.isFile() || basename(entry.parentPath) !== "migrations") continue;
        if ((extension !== ".ts" && extension !== ".js") || name.includes(".")) continue;
        const path = join(entry.parentPath, entry.name);
        const other = files.get(name);
        if (other)
          throw new Error(
            `Two migrations are named ${name}: ${relative(root, other)} and ${relative(root, path)}; rename the newer one.`,
          );
        files.set(name, path);
      }
      const migrations: Record<string, Migration> = {};
      for (const [name, path] of files) {
        const module: Partial<Migration> = await import(pathToFileURL(path).href);
        if (typeof module.up !== "function") throw new Error(`The migration ${path} exports no up function.`);
        migrations[name] = module as Migration;
      }
      return migrations;
    },
  };
}
