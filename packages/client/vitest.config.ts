import { defineConfig, mergeConfig } from "vitest/config";
import shared from "../../vitest.shared.js";

// Setting up runs every migration and loads the whole server: seconds on a machine that is building
// and testing the other packages at the same time.
export default mergeConfig(
  shared,
  defineConfig({ test: { include: ["src/**/*.test.ts"], hookTimeout: 60_000 } }),
);
