import { STATUS_TYPES } from "@quire/api-types";
import { pino } from "pino";
import supertest from "supertest";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createApp } from "../app.js";
import { generateSecretKey } from "../auth/secret-key.js";
import { openDatabase } from "../db/database.js";
import { loadApiSpec } from "../spec.js";
import { aloneOnTheCatalog } from "../testing/database.js";
import { createTestApp, type TestApp, type TestUser } from "../testing/harness.js";

let t: TestApp;
let me: TestUser;

beforeAll(async () => {
  t = await createTestApp();
  me = await t.user();
});
afterAll(() => t.close());

const expectErrorBody = (body: unknown, code: number) =>
  expect(body).toEqual({ error: { code, type: STATUS_TYPES[code], message: expect.any(String) } });

describe("the HTTP surface", () => {
  it("answers health checks without a token", async () => {
    await t.request.get("/").expect(200);
    const res = await t.request.get("/health").expect(200);
    expect(res.body).toEqual({ status: "ok" });
  });

  it("answers 404 for unknown paths, inside and outside /v1", async () => {
    expectErrorBody((await t.request.get("/v1/nothing-here").set(me.auth).expect(404)).body, 404);
    expectErrorBody((await t.request.get("/elsewhere").expect(404)).body, 404);
  });

  it("answers 405 for a known path with the wrong method", async () => {
    const res = await t.request.put("/v1/user").set(me.auth).expect(405);
    expectErrorBody(res.body, 405);
    expect(res.headers.allow).toContain("GET");
  });

  it("answers 400 for malformed JSON and 415 for another content type", async () => {
    const bad = await t.request
      .post("/v1/orgs")
      .set(me.auth)
      .set("Content-Type", "application/json")
      .send("{nope");
    expect(bad.status).toBe(400);
    expectErrorBody(bad.body, 400);
    const text = await t.request
      .post("/v1/orgs")
      .set(me.auth)
      .set("Content-Type", "text/plain")
      .send("title");
    expect(text.status).toBe(415);
    expectErrorBody(text.body, 415);
  });

  it("never shows a stack trace", async () => {
    const res = await t.request.post("/v1/orgs").set(me.auth).send({ title: 42 }).expect(400);
    expectErrorBody(res.body, 400);
    expect(JSON.stringify(res.body)).not.toMatch(/at .*\.js/);
  });

  it("echoes the caller's request id, or makes one", async () => {
    const given = await t.request.get("/health").set("X-Request-Id", "abc-123");
    expect(given.headers["x-request-id"]).toBe("abc-123");
    const made = await t.request.get("/health");
    expect(made.headers["x-request-id"]).toMatch(/^[0-9a-f-]{36}$/);
    // The API's answers, errors and empty ones included, carry it too.
    const answered = await t.request.get("/v1/user").set(me.auth).set("X-Request-Id", "api-1").expect(200);
    expect(answered.headers["x-request-id"]).toBe("api-1");
    const refused = await t.request.get("/v1/user").set("X-Request-Id", "api-2").expect(401);
    expect(refused.headers["x-request-id"]).toBe("api-2");
    const { organizationId, admin } = await t.organization();
    const { body: space } = await t.request
      .post(`/v1/orgs/${organizationId}/spaces`)
      .set(admin.auth)
      .send({ title: "Gone" })
      .expect(201);
    const empty = await t.request
      .delete(`/v1/spaces/${space.id}`)
      .set(admin.auth)
      .set("X-Request-Id", "api-3")
      .expect(204);
    expect(empty.headers["x-request-id"]).toBe("api-3");
  });

  it("logs each request with its id, never the token", async () => {
    const lines: string[] = [];
    const logger = pino({ level: "info" }, { write: (line: string) => lines.push(line) });
    const logged = createApp({ db: t.db, logger, secretKey: t.secretKey });
    await supertest(logged).get("/v1/user").set(me.auth).set("X-Request-Id", "req-42").expect(200);
    const entry = lines.map((line) => JSON.parse(line)).find((e) => e.req?.id === "req-42");
    expect(entry?.res?.statusCode).toBe(200);
    expect(lines.join("\n")).not.toContain(me.token);
  });

  it("writes each request line as pino's logger.info would, a line of its own", async () => {
    const lines: string[] = [];
    const logger = pino({ level: "info" }, { write: (line: string) => lines.push(line) });
    await supertest(createApp({ db: t.db, logger, secretKey: t.secretKey }))
      .get("/v1/user?share=secret")
      .set(me.auth)
      .set("X-Request-Id", 'quote " and \\ backslash')
      // An unknown query parameter: a 400 is logged like any answer.
      .expect(400);
    const line = lines.find((l) => l.includes("request completed")) ?? "";
    expect(line.endsWith("}\n")).toBe(true);
    const written = JSON.parse(line);
    expect(written.req).toEqual({ id: 'quote " and \\ backslash', method: "GET", url: "/v1/user?share=***" });
    expect(written.res).toEqual({ statusCode: 400 });
    logger.info(
      { req: written.req, res: written.res, responseTime: written.responseTime },
      "request completed",
    );
    const byPino = JSON.parse(lines.at(-1) ?? "");
    expect(Object.keys(written)).toEqual(Object.keys(byPino));
    expect({ ...written, time: 0 }).toEqual({ ...byPino, time: 0 });
  });

  it("rejects a response that breaks the contract when response validation is on", async () => {
    const spec = loadApiSpec();
    const schemas = (spec.components as { schemas: Record<string, { required: string[] }> }).schemas;
    const user = schemas.User;
    if (!user) throw new Error("the contract has no User schema");
    user.required = [...user.required, "nickname"];
    const strict = createApp({ db: t.db, apiSpec: spec, validateResponses: true, secretKey: t.secretKey });
    const res = await supertest(strict).get("/v1/user").set(me.auth).expect(500);
    expect(res.body.error.message).toContain("nickname");
  });

  it("rejects an error status the operation does not declare when response validation is on", async () => {
    const spec = loadApiSpec();
    const getSpace = spec.paths["/v1/spaces/{spaceId}"]?.get as { responses: Record<string, unknown> };
    delete getSpace.responses["404"];
    const strict = createApp({ db: t.db, apiSpec: spec, validateResponses: true, secretKey: t.secretKey });
    const res = await supertest(strict).get("/v1/spaces/no-such-space").set(me.auth).expect(500);
    expect(res.body.error.message).toBe("Response does not match the contract: status 404 is not declared");
    // In production the error goes out as the handler threw it.
    const production = createApp({
      db: t.db,
      apiSpec: spec,
      validateResponses: false,
      secretKey: t.secretKey,
    });
    await supertest(production).get("/v1/spaces/no-such-space").set(me.auth).expect(404);
  });
});

describe("the request pipeline", () => {
  it("answers HEAD like GET, without a body", async () => {
    const res = await t.request.head("/v1/user").set(me.auth).expect(200);
    expect(res.headers["content-type"]).toContain("application/json");
    expect(res.text ?? "").toBe("");
  });

  it("checks the token before reading the body", async () => {
    const res = await t.request
      .post("/v1/orgs")
      .set("Content-Type", "application/json")
      .send("{not json")
      .expect(401);
    expect(res.headers["www-authenticate"]).toBe('Bearer realm="quire"');
  });

  it("answers 400 with a clear message when a required body is missing", async () => {
    const { organizationId, admin } = await t.organization();
    const res = await t.request.patch(`/v1/orgs/${organizationId}`).set(admin.auth).expect(400);
    expectErrorBody(res.body, 400);
    expect(res.body.error.message).toContain("JSON request body");
  });

  it("logs failures with the request id", async () => {
    const lines: string[] = [];
    const logger = pino({ level: "info" }, { write: (line: string) => lines.push(line) });
    const broken = await createTestApp();
    const user = await broken.user();
    const app = createApp({ db: broken.db, logger, secretKey: broken.secretKey });
    await aloneOnTheCatalog(broken.db, (db) => db.schema.dropTable("api_tokens").execute());
    await supertest(app).get("/v1/user").set(user.auth).set("X-Request-Id", "req-500").expect(500);
    await broken.close();
    const failure = lines.map((line) => JSON.parse(line)).find((e) => e.level >= 50);
    expect(failure?.reqId).toBe("req-500");
  });
});

describe("with the database unreachable", () => {
  it("answers 503 at once, and /health says it is not ready", async () => {
    const db = openDatabase({ location: "postgres://quire@127.0.0.1:9/quire", connectTimeoutMs: 500 });
    const unreachable = supertest(createApp({ db, secretKey: generateSecretKey() }));
    const started = Date.now();
    const health = await unreachable.get("/health").expect(503);
    expect(health.body).toEqual({ status: "database unavailable" });
    const res = await unreachable.get("/v1/user").set(me.auth).expect(503);
    expectErrorBody(res.body, 503);
    expect(Date.now() - started).toBeLessThan(10_000);
    await db.destroy();
  });
});
