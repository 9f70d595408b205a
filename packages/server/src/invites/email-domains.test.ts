import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type TestApp, type TestUser } from "../testing/harness.js";

let t: TestApp;
let organizationId: string;
let admin: TestUser;

beforeAll(async () => {
  t = await createTestApp();
  ({ organizationId, admin } = await t.organization());
  // Test users' emails are userN@example.com.
  await t.request
    .patch(`/v1/orgs/${organizationId}`)
    .set(admin.auth)
    .send({ emailDomains: ["Example.com"] })
    .expect(200);
});
afterAll(() => t.close());

const member = (userId: string) =>
  t.request.get(`/v1/orgs/${organizationId}/members/${userId}`).set(admin.auth);

describe("joining an organization through one's email domain (joinOrganization)", () => {
  it("makes a person whose email's domain the organization lists a guest, once", async () => {
    const person = await t.user();
    await member(person.user.id).expect(404);
    await t.request.post(`/v1/orgs/${organizationId}/join`).set(person.auth).expect(204);
    const joined = await member(person.user.id).expect(200);
    expect(joined.body.role).toBeNull();
    // Again: nothing changes, a role given since included.
    await t.request
      .patch(`/v1/orgs/${organizationId}/members/${person.user.id}`)
      .set(admin.auth)
      .send({ role: "edit" })
      .expect(200);
    await t.request.post(`/v1/orgs/${organizationId}/join`).set(person.auth).expect(204);
    expect((await member(person.user.id).expect(200)).body.role).toBe("edit");
  });

  it("answers 404 for another domain as for an unknown organization, 401 without a token", async () => {
    const { organizationId: other, admin: otherAdmin } = await t.organization();
    const person = await t.user();
    const refused = await t.request.post(`/v1/orgs/${other}/join`).set(person.auth).expect(404);
    const unknown = await t.request.post("/v1/orgs/no-such-organization/join").set(person.auth).expect(404);
    expect(refused.body.error.message).toBe(unknown.body.error.message);
    await t.request.get(`/v1/orgs/${other}/members/${person.user.id}`).set(otherAdmin.auth).expect(404);
    await t.request.post(`/v1/orgs/${organizationId}/join`).expect(401);
  });
});
