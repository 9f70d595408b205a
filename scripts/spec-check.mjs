#!/usr/bin/env node
// Fails when the committed OpenAPI or generated types are not what the TypeSpec contract compiles to.
import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, relative } from "node:path";
import { fileURLToPath } from "node:url";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
const bin = (name) => join(root, "node_modules", ".bin", name);
const out = mkdtempSync(join(tmpdir(), "quire-spec-check-"));

try {
  execFileSync(bin("tsp"), ["compile", "main.tsp", "--warn-as-error", "--output-dir", out], {
    cwd: join(root, "spec"),
    stdio: ["ignore", "ignore", "inherit"],
  });
  const freshJson = join(out, "openapi", "openapi.json");
  const freshTypes = join(out, "openapi.ts");
  execFileSync(bin("openapi-typescript"), [freshJson, "--output", freshTypes], {
    stdio: ["ignore", "ignore", "inherit"],
  });

  const pairs = [
    [freshJson, join(root, "spec/openapi/openapi.json")],
    [join(out, "openapi", "openapi.yaml"), join(root, "spec/openapi/openapi.yaml")],
    [freshTypes, join(root, "packages/api-types/src/generated/openapi.ts")],
  ];
  const stale = pairs.filter(([fresh, committed]) => {
    try {
      return readFileSync(fresh, "utf8") !== readFileSync(committed, "utf8");
    } catch {
      return true;
    }
  });
  if (stale.length > 0) {
    console.error("Generated files are stale; run `npm run build` and commit them:");
    for (const [, committed] of stale) console.error(`  ${relative(root, committed)}`);
    process.exit(1);
  }
  console.log("spec:check: the committed OpenAPI and generated types match the TypeSpec contract.");
} finally {
  rmSync(out, { recursive: true, force: true });
}
