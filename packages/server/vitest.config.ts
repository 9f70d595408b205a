import { join } from "node:path";
import {
  configDefaults,
  defineConfig,
  mergeConfig,
  type TestProjectInlineConfiguration,
} from "vitest/config";
import shared from "../../vitest.shared.js";
import { databaseFreeTests } from "./src/testing/database-free-tests.js";

/** Every test file runs once per database; `src/testing/database.ts` reads QUIRE_TEST_DB. */
const projects: TestProjectInlineConfiguration[] = [
  { extends: true, test: { name: "sqlite", env: { QUIRE_TEST_DB: "sqlite" } } },
];
const once = globalThis as { postgresSkipTold?: boolean };
if (process.env.QUIRE_TEST_DATABASE_URL) {
  projects.push({
    extends: true,
    // Type tests and the tests that reach no database run in the sqlite project only.
    test: {
      name: "postgres",
      env: { QUIRE_TEST_DB: "postgres" },
      typecheck: { enabled: false },
      exclude: [
        ...configDefaults.exclude,
        ...databaseFreeTests(join(import.meta.dirname, "src")).map((file) => `src/${file}`),
      ],
    },
  });
} else if (!once.postgresSkipTold) {
  // Vitest loads this file again for each project that extends it: tell it once.
  once.postgresSkipTold = true;
  console.log("PostgreSQL project skipped: set QUIRE_TEST_DATABASE_URL to run the tests on PostgreSQL too.");
}

// Two files at a time: most of a file's time is spent waiting on a database, Git or Chromium, and
// vitest's default on two cores (one worker) leaves the other core idle. The time limits only catch a
// test that hangs (no test asserts a duration): they leave room for a machine that is doing both.
export default mergeConfig(
  shared,
  defineConfig({
    test: {
      include: ["src/**/*.test.ts"],
      projects,
      maxWorkers: 2,
      testTimeout: 20_000,
      hookTimeout: 30_000,
      // A browser's state follows an action by a render or more: reads of it retry this long.
      expect: { poll: { timeout: 5_000 } },
    },
  }),
);
