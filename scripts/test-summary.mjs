#!/usr/bin/env node
// One closing line for the whole repository, summed from each package's vitest JSON report.
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
const totals = { passed: 0, failed: 0, skipped: 0 };
const workspaces = ["spec", ...readdirSync(join(root, "packages")).map((pkg) => join("packages", pkg))];
for (const workspace of workspaces) {
  const report = join(root, workspace, "test-results.json");
  if (!existsSync(report)) continue;
  const { numPassedTests, numFailedTests, numPendingTests, numTodoTests } = JSON.parse(
    readFileSync(report, "utf8"),
  );
  totals.passed += numPassedTests;
  totals.failed += numFailedTests;
  totals.skipped += numPendingTests + numTodoTests;
}
console.log(`${totals.passed} passed, ${totals.failed} failed, ${totals.skipped} skipped`);
process.exit(totals.failed > 0 || totals.passed === 0 ? 1 : 0);
