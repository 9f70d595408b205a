import { afterAll, beforeAll, expect, it } from "vitest";
import { createTestApp, type TestApp, type TestUser } from "../testing/harness.js";

let t: TestApp;
let admin: TestUser;
let organizationId: string;
beforeAll(async () => {
  t = await createTestApp();
  ({ admin, organizationId } = await t.organization());
});
afterAll(() => t.close());

it("answers 413 with the standard error body to a body over 1 MB, creating nothing", async () => {
  const res = await t.request
    .post(`/v1/orgs/${organizationId}/collections`)
    .set(admin.auth)
    .send({ title: "Big", description: "x".repeat(1024 * 1024) })
    .expect(413);
  expect(res.body).toEqual({ error: { code: 413, type: "payload_too_large", message: expect.any(String) } });
  expect(await t.db.selectFrom("collections").select("id").execute()).toEqual([]);
});
