import { execFileSync } from "node:child_process";
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";

/**
 * Real documentation kept as Git bundles (`../shared/corpora` beside the project, or the folder
 * `QUIRE_CORPORA` names): what the corpus tests read.
 */
const CORPORA = process.env.QUIRE_CORPORA ?? resolve(import.meta.dirname, "../../../../../shared/corpora");

/** The path of a bundle of the corpora. */
export const corpusPath = (bundle: string) => join(CORPORA, bundle);

/** Whether the bundle is missing here: then the test says so, once, and skips. */
export function corpusMissing(bundle: string): boolean {
  const missing = !existsSync(corpusPath(bundle));
  if (missing)
    console.log(`Corpus test skipped: no ${corpusPath(bundle)} (set QUIRE_CORPORA to its folder).`);
  return missing;
}

/** The files of the bundle's branch, by path. */
export function corpusFiles(bundle: string): Record<string, Buffer> {
  const dir = mkdtempSync(join(tmpdir(), "quire-corpus-"));
  try {
    execFileSync("git", ["clone", "-q", "--bare", corpusPath(bundle), dir]);
    const git = (...args: string[]) =>
      execFileSync("git", ["--git-dir", dir, ...args], { maxBuffer: 1 << 28 });
    const branch = git("for-each-ref", "--format=%(refname)", "refs/heads")
      .toString()
      .split("\n")[0] as string;
    const files: Record<string, Buffer> = {};
    for (const entry of git("ls-tree", "-r", "-z", branch).toString().split("\0")) {
      const tab = entry.indexOf("\t");
      if (tab < 0) continue;
      const oid = entry.slice(0, tab).split(" ")[2] as string;
      files[entry.slice(tab + 1)] = git("cat-file", "blob", oid);
    }
    return files;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
