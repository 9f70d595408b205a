import { createHash } from "node:crypto";
import supertest from "supertest";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createApp } from "../app.js";
import { testDatabaseKind } from "../testing/database.js";
import { createTestApp, type TestApp, type TestUser } from "../testing/harness.js";
import { RateLimiter } from "./rate-limit.js";

let t: TestApp;
let admin: TestUser;
let other: TestUser;
beforeAll(async () => {
  t = await createTestApp();
  ({ admin } = await t.organization());
  ({ admin: other } = await t.organization());
});
afterAll(() => t.close());

describe("the per-token rate limit", () => {
  it("answers 429 with Retry-After past the limit, and tells every answer where the token stands", async () => {
    const limiter = new RateLimiter(t.db, { limit: 3, windowMs: 60_000 });
    const request = supertest(
      createApp({ db: t.db, validateResponses: true, rateLimit: limiter.policy, secretKey: t.secretKey }),
    );
    const remaining: string[] = [];
    for (let i = 0; i < 3; i++) {
      const res = await request.get("/v1/user").set(admin.auth).expect(200);
      expect(res.headers["ratelimit-policy"]).toBe("3;w=60");
      remaining.push(/remaining=(\d+)/.exec(res.headers.ratelimit ?? "")?.[1] ?? "");
    }
    expect(remaining).toEqual(["2", "1", "0"]);

    const refused = await request.get("/v1/user").set(admin.auth).expect(429);
    expect(refused.body).toEqual({
      error: { code: 429, type: "rate_limited", message: expect.stringContaining("Too many requests") },
    });
    expect(Number(refused.headers["retry-after"])).toBeGreaterThan(0);
    expect(Number(refused.headers["retry-after"])).toBeLessThanOrEqual(60);
    expect(refused.headers.ratelimit).toMatch(/^limit=3, remaining=0, reset=\d+$/);
    // Another token has its own count.
    await request.get("/v1/user").set(other.auth).expect(200);
    limiter.stop();
  });

  it("counts requests without a valid token against their address: 429 past the limit, tokens unaffected", async () => {
    const request = supertest(
      createApp({
        db: t.db,
        validateResponses: true,
        rateLimit: { limit: 3, windowMs: 60_000 },
        secretKey: t.secretKey,
      }),
    );
    const statuses: number[] = [];
    for (const auth of [undefined, "Bearer not-a-token", "Basic abc", undefined]) {
      const sent = request.get("/v1/user");
      statuses.push((await (auth ? sent.set("Authorization", auth) : sent)).status);
    }
    expect(statuses).toEqual([401, 401, 401, 429]);
    const refused = await request.post("/v1/orgs").send({ title: "x" }).expect(429);
    expect(refused.body.error.message).toContain("an address without a valid one");
    expect(Number(refused.headers["retry-after"])).toBeGreaterThan(0);
    // A valid token from the same address is counted on its own (a new one: on PostgreSQL the
    // other tests' counts are shared through the database).
    const fresh = await t.user();
    await request.get("/v1/user").set(fresh.auth).expect(200);
  });

  it("starts a new count with each window", async () => {
    let now = 1_000_000;
    const limiter = new RateLimiter(t.db, { limit: 2, windowMs: 1000 }, () => now);
    const allowed = async () => (await limiter.take("a token")).allowed;
    expect([await allowed(), await allowed(), await allowed()]).toEqual([true, true, false]);
    now += 1000;
    const state = await limiter.take("a token");
    expect(state).toEqual({ allowed: true, limit: 2, remaining: 1, resetSeconds: 1 });
    limiter.stop();
  });

  it.skipIf(testDatabaseKind !== "postgres")(
    "is shared by the processes of one PostgreSQL database",
    async () => {
      const policy = { limit: 10, windowMs: 60_000 };
      const first = new RateLimiter(t.db, policy);
      const second = new RateLimiter(t.db, policy);
      for (let i = 0; i < 8; i++) expect((await first.take("shared token")).allowed).toBe(true);
      expect(await second.take("shared token")).toMatchObject({ allowed: true, remaining: 1 });
      expect(await second.take("shared token")).toMatchObject({ allowed: true, remaining: 0 });
      expect((await second.take("shared token")).allowed).toBe(false);
      expect((await first.take("shared token")).allowed).toBe(false);
      // Stored under the token's hash, never the token itself.
      const hash = createHash("sha256").update("shared token").digest("base64url");
      const stored = await t.db
        .selectFrom("rate_limit_windows")
        .select("count")
        .where("token_hash", "=", hash)
        .executeTakeFirst();
      expect(stored).toEqual({ count: 12 });
      first.stop();
      second.stop();
    },
  );
});
