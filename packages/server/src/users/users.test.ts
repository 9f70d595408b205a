import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type TestApp } from "../testing/harness.js";

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

describe("GET /v1/user", () => {
  it("returns the caller", async () => {
    const me = await t.user();
    const res = await t.request.get("/v1/user").set(me.auth).expect(200);
    expect(res.body).toEqual({
      object: "user",
      id: me.user.id,
      displayName: me.user.display_name,
      email: me.user.email,
      urls: { location: `http://quire.test/v1/users/${me.user.id}` },
    });
  });

  it("answers 401 for a missing, malformed or revoked token", async () => {
    await t.request.get("/v1/user").expect(401);
    await t.request.get("/v1/user").set({ Authorization: "Basic abc" }).expect(401);
    const me = await t.user();
    await t.db.deleteFrom("api_tokens").where("user_id", "=", me.user.id).execute();
    await t.request.get("/v1/user").set(me.auth).expect(401);
  });

  it("answers 400 for an unknown query parameter", async () => {
    const me = await t.user();
    await t.request.get("/v1/user?x=1").set(me.auth).expect(400);
  });

  it("stores only a hash of each token", async () => {
    const me = await t.user();
    const rows = await t.db
      .selectFrom("api_tokens")
      .select("token_hash")
      .where("user_id", "=", me.user.id)
      .execute();
    expect(rows).toHaveLength(1);
    expect(rows[0]?.token_hash).not.toContain(me.token);
    expect(rows[0]?.token_hash).toMatch(/^[0-9a-f]{64}$/);
  });
});
