import react from "@vitejs/plugin-react";
import { defineConfig } from "vitest/config";

/**
 * The server serves `dist/` at /app/: `index.html` revalidated on every visit, `assets/*` (hashed
 * names) cached for a year. No inline script or style: the server's policy refuses both.
 */
export default defineConfig({
  base: "/app/",
  plugins: [react()],
  build: {
    outDir: "dist",
    emptyOutDir: true,
    assetsDir: "assets",
    // Anything inlined as a data: URL would still be allowed for images only; keep files as files.
    assetsInlineLimit: 0,
    // Served as they are, maps would publish the sources: none is written.
    sourcemap: false,
  },
  test: {
    environment: "happy-dom",
    include: ["src/**/*.test.{ts,tsx}"],
    reporters: ["default", "json"],
    outputFile: { json: "test-results.json" },
  },
});
