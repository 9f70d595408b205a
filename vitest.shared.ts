import { defineConfig } from "vitest/config";

/** What every package's tests share: a JSON report for the repository's one-line summary, and type tests. */
export default defineConfig({
  test: {
    reporters: ["default", "json"],
    outputFile: { json: "test-results.json" },
    typecheck: { enabled: true, include: ["src/**/*.test-d.ts"], tsconfig: "./tsconfig.json" },
  },
});
