import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type TestApp, type TestUser } from "../testing/harness.js";
import { IDEMPOTENCY_KEY_TTL_MS } from "./store.js";

let t: TestApp;
let admin: TestUser;
let reader: TestUser;
let organizationId: string;
beforeAll(async () => {
  t = await createTestApp();
  ({ admin, organizationId } = await t.organization());
  reader = await t.user({ organizationId, role: "read" });
});
afterAll(() => t.close());

const createCollection = (user: TestUser, key: string, title: string) =>
  t.request
    .post(`/v1/orgs/${organizationId}/collections`)
    .set(user.auth)
    .set("Idempotency-Key", key)
    .send({ title });

const collectionsTitled = async (title: string) =>
  (await t.db.selectFrom("collections").select("id").where("title", "=", title).execute()).length;

describe("Idempotency-Key on POST", () => {
  it("runs a request once and answers its retries with the first answer", async () => {
    const first = await createCollection(admin, "key-1", "Once").expect(201);
    const retry = await createCollection(admin, "key-1", "Once").expect(201);
    expect(retry.body).toEqual(first.body);
    expect(retry.headers.location).toBe(first.headers.location);
    expect(retry.headers["idempotent-replayed"]).toBe("true");
    expect(first.headers["idempotent-replayed"]).toBeUndefined();
    expect(await collectionsTitled("Once")).toBe(1);
  });

  it("refuses the same key with another request (422), running nothing", async () => {
    await createCollection(admin, "key-2", "Original").expect(201);
    const other = await createCollection(admin, "key-2", "Different").expect(422);
    expect(other.body).toEqual({
      error: {
        code: 422,
        type: "idempotency_key_reused",
        message: expect.stringContaining("another request"),
      },
    });
    expect(await collectionsTitled("Different")).toBe(0);
  });

  it("replays a refusal too, and keeps keys per user", async () => {
    const refused = await createCollection(reader, "key-3", "Not allowed").expect(403);
    const again = await createCollection(reader, "key-3", "Not allowed").expect(403);
    expect(again.body).toEqual(refused.body);
    expect(again.headers["idempotent-replayed"]).toBe("true");
    await createCollection(admin, "key-3", "Not allowed").expect(201);
  });

  it("runs one of concurrent requests with one key; the others wait their turn or get its answer", async () => {
    const answers = await Promise.all(
      Array.from({ length: 5 }, () => createCollection(admin, "key-4", "Concurrent")),
    );
    expect(answers.filter((res) => res.status === 201 && !res.headers["idempotent-replayed"])).toHaveLength(
      1,
    );
    for (const res of answers) expect([201, 409]).toContain(res.status);
    for (const res of answers.filter((res) => res.status === 409))
      expect(res.body.error.type).toBe("idempotency_in_progress");
    expect(await collectionsTitled("Concurrent")).toBe(1);
  });

  it("forgets a key a day after its first use", async () => {
    await createCollection(admin, "key-5", "Daily").expect(201);
    t.clock.advance(IDEMPOTENCY_KEY_TTL_MS);
    const later = await createCollection(admin, "key-5", "Daily").expect(201);
    expect(later.headers["idempotent-replayed"]).toBeUndefined();
    expect(await collectionsTitled("Daily")).toBe(2);
  });

  it("answers 400 to a key of over 255 characters", async () => {
    await createCollection(admin, "k".repeat(256), "Long key").expect(400);
    expect(await collectionsTitled("Long key")).toBe(0);
  });
});
