import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { Router } from "express";
import swaggerUi from "swagger-ui-express";
import type { OpenApiSpec } from "../spec.js";

const require = createRequire(import.meta.url);

/**
 * The contract as committed (`/openapi.json`, `/openapi.yaml`) and an interactive reference of it
 * at `/docs`, whose scripts and styles this server serves itself: it works offline. "Try it out"
 * sends requests to this server.
 */
export function apiReference(apiSpec: OpenApiSpec, publicUrl: string): Router {
  const yaml = readFileSync(require.resolve("@quire/spec/openapi.yaml"), "utf8");
  const json = JSON.stringify(apiSpec);
  const forThisServer = { ...apiSpec, servers: [{ url: publicUrl, description: "This Quire server" }] };

  const router = Router();
  router.get("/openapi.json", (_req, res) => {
    res.type("json").send(json);
  });
  router.get("/openapi.yaml", (_req, res) => {
    res.type("application/yaml").send(yaml);
  });
  router.use(
    "/docs",
    swaggerUi.serveFiles(forThisServer),
    swaggerUi.setup(forThisServer, { customSiteTitle: "Quire API reference" }),
  );
  return router;
}
