import { defineConfig, mergeConfig } from "vitest/config";
import shared from "../../vitest.shared.js";

// Only type tests here: the package has no runtime code.
export default mergeConfig(shared, defineConfig({ test: { include: [] } }));
