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
 * layers live in the `overrides` of the root biome.json, so only a real run shows them. A `companion`
 * module is written beside the probe for the time of the check too; in either source, `{probe}` and
 * `{companion}` stand for the specifier that imports that module from its neighbour.
 */
export async function lintProbe(
  folder: string,
  source: string,
  { deeper = false, companion }: { deeper?: boolean; companion?: string } = {},
): Promise<{ failed: boolean; output: string }> {
  const name = `lint-probe-${randomUUID()}`;
  const probeFolder = join(src, folder, name);
  const file = deeper ? join(probeFolder, "probe.ts") : `${probeFolder}.ts`;
  const companionFile = join(src, folder, `${name}-companion.ts`);
  const specifiers = (text: string) =>
    text
      .replaceAll("{probe}", deeper ? `./${name}/probe.js` : `./${name}.js`)
      .replaceAll("{companion}", `./${name}-companion.js`);
  if (deeper) await mkdir(probeFolder);
  await writeFile(file, specifiers(source));
  if (companion !== undefined) await writeFile(companionFile, specifiers(companion));
  try {
    await promisify(execFile)(process.execPath, [biome, "lint", file], { cwd: src });
    return { failed: false, output: "" };
  } catch (err) {
    const { stdout, stderr } = err as { stdout: string; stderr: string };
    return { failed: true, output: stdout + stderr };
  } finally {
    await rm(deeper ? probeFolder : file, { recursive: true, force: true });
    await rm(companionFile, { force: true });
  }
}
