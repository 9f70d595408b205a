import { execFile } from "node:child_process";
import { randomUUID } from "node:crypto";
import { mkdir, rm, writeFile } from "node:fs/promises";
import { createRequire } from "node:module";
import { join } from "node:path";
import { promisify } from "node:util";
import { describe, expect, it } from "vitest";

const biome = createRequire(import.meta.url).resolve("@biomejs/biome/bin/biome");

/**
 * Lints a module written, for the time of the check, into a folder of its own under `src/<folder>`
 * (never a folder something scans, as migrations are): Biome's exit status and what it printed. The
 * layers live in the `overrides` of the root biome.json, so only a real run shows them.
 */
async function lintProbe(
  folder: string,
  source: string,
  { deeper = false } = {},
): Promise<{ failed: boolean; output: string }> {
  const probeFolder = join(import.meta.dirname, folder, `layers-probe-${randomUUID()}`);
  const file = deeper ? join(probeFolder, "probe.ts") : `${probeFolder}.ts`;
  if (deeper) await mkdir(probeFolder);
  await writeFile(file, source);
  try {
    await promisify(execFile)(process.execPath, [biome, "lint", file], { cwd: import.meta.dirname });
    return { failed: false, output: "" };
  } catch (err) {
    const { stdout, stderr } = err as { stdout: string; stderr: string };
    return { failed: true, output: stdout + stderr };
  } finally {
    await rm(deeper ? probeFolder : file, { recursive: true, force: true });
  }
}

describe("the lint keeps the layers", { timeout: 60_000 }, () => {
  it("fails on a kernel module importing an area", async () => {
    const { failed, output } = await lintProbe(
      "content",
      'import { linksOfDocuments } from "../links/store.js";\nexport const probe = linksOfDocuments;\n',
    );
    expect(failed).toBe(true);
    expect(output).toContain("lint/style/noRestrictedImports");
    expect(output).toContain("The kernel");
  });

  it("fails on a module one folder deeper in the kernel (as a migration is) importing an area", async () => {
    const { failed, output } = await lintProbe(
      "db",
      'import { createUser } from "../../users/store.js";\nexport const probe = createUser;\n',
      { deeper: true },
    );
    expect(failed).toBe(true);
    expect(output).toContain("lint/style/noRestrictedImports");
  });

  it("passes a kernel module importing the kernel, and an area importing the kernel", async () => {
    const kernel = await lintProbe(
      "content",
      'import { ROLE_ORDER } from "../policy.js";\nimport { notFound } from "../http/errors.js";\n' +
        "export const probe = [ROLE_ORDER, notFound];\n",
    );
    expect(kernel).toEqual({ failed: false, output: "" });
    const area = await lintProbe(
      "links",
      'import { saveDocumentLinks } from "../content/links.js";\nexport const probe = saveDocumentLinks;\n',
    );
    expect(area).toEqual({ failed: false, output: "" });
  });
});
