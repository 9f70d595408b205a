import { execFileSync } from "node:child_process";

function git(cwd: string, args: string[]): string {
  return execFileSync("git", args, {
    cwd,
    encoding: "utf8",
    stdio: ["ignore", "pipe", "pipe"],
    maxBuffer: 256 * 1024 * 1024,
  });
}

function succeeds(cwd: string, args: string[]): boolean {
  try {
    git(cwd, args);
    return true;
  } catch {
    return false;
  }
}

export function repositoryRoot(cwd: string): string {
  try {
    return git(cwd, ["rev-parse", "--show-toplevel"]).trim();
  } catch {
    throw new Error(`${cwd} is not inside a git repository`);
  }
}

/** A file's content at a commit, or undefined when the commit has no such file. */
export function readAtRef(root: string, ref: string, path: string): string | undefined {
  if (ref.startsWith("-") || !succeeds(root, ["rev-parse", "--verify", "--quiet", `${ref}^{commit}`])) {
    throw new Error(
      `unknown git ref "${ref}" (is it fetched? CI checkouts need fetch-depth: 0 to see the base branch)`,
    );
  }
  if (!succeeds(root, ["cat-file", "-e", `${ref}:${path}`])) return undefined;
  return git(root, ["show", `${ref}:${path}`]);
}
