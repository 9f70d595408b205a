import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import express from "express";
import supertest from "supertest";
import { afterAll, describe, expect, it } from "vitest";
import { spaRoutes } from "./spa.js";

describe("the app's routes without a build", () => {
  const dirs: string[] = [];
  afterAll(async () => {
    for (const dir of dirs) await rm(dir, { recursive: true, force: true });
  });

  it("answer 503 saying the app is not built, rather than failing", async () => {
    const dist = await mkdtemp(join(tmpdir(), "quire-app-"));
    dirs.push(dist);
    const app = express();
    const router = express.Router();
    spaRoutes(router, "/app", async () => true, join(dist, "missing"));
    app.use(router);
    const res = await supertest(app).get("/app/").expect(503);
    expect(res.text).toMatch(/not built/);
    await supertest(app).get("/app/assets/index-abc.js").expect(404);
  });
});
