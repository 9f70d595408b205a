import { execFile } from "node:child_process";
import { randomUUID } from "node:crypto";
import { mkdir, rm, writeFile } from "node:fs/promises";
import { createRequire } from "node:module";
import { join } from "node:path";
import { promisify } from "node:util";

const biome = createRequire(import.meta.url).resolve("@biomejs/biome/bin/biome");
const src = join(import.meta.dirname, "..");

/**
 * Lints a module written, for the time of the check, into a folder of its own under `src/<folder>`
 * (never a folder something scans, as migrations are): Biome's exit status and what it printed. The
 * layers live in the `overrides` of the root biome.json, so only a real run shows them.
 */
export async function lintProbe(
  folder: string,
  source: string,
  { deeper = false } = {},
): Promise<{ failed: boolean; output: string }> {
  const probeFolder = join(src, folder, `lint-probe-${randomUUID()}`);
  const file = deeper ? join(probeFolder, "probe.ts") : `${probeFolder}.ts`;
  if (deeper) await mkdir(probeFolder);
  await writeFile(file, source);
  try {
    await promisify(execFile)(process.execPath, [biome, "lint", file], { cwd: src });
    return { failed: false, output: "" };
  } catch (err) {
    const { stdout, stderr } = err as { stdout: string; stderr: string };
    return { failed: true, output: stdout + stderr };
  } finally {
    await rm(deeper ? probeFolder : file, { recursive: true, force: true });
  }
}
