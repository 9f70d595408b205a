import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createOrganizationScenario, type TestApp, type TestUser } from "../testing/harness.js";

let t: TestApp;
let organizationId: string;
let admin: TestUser;
let reader: TestUser;
let outsider: TestUser;
/** Members below admin, each of whom gets 403 everywhere: translation settings are admin only. */
let nonAdmins: TestUser[];
/** The admin of another organization. */
let otherAdmin: TestUser;
let otherOrganizationId: string;

beforeAll(async () => {
  const scenario = await createOrganizationScenario({ users: { creator: "create", guest: "guest" } });
  ({ t, organizationId, admin, reader, outsider } = scenario);
  nonAdmins = [reader, scenario.creator, scenario.guest];
  ({ organizationId: otherOrganizationId, admin: otherAdmin } = await t.organization());
});
afterAll(() => t.close());

const collection = (org = organizationId) => `/v1/orgs/${org}/translations`;
const one = (id: string, org = organizationId) => `${collection(org)}/${id}`;

/** New settings of the scenario's organization, made through the API. */
async function createSettings(body: { title: string; languages?: string[] } = { title: "Docs" }) {
  const res = await t.request.post(collection()).set(admin.auth).send(body).expect(201);
  return res.body as { id: string; title: string; languages: string[]; updatedAt: string };
}

const readBack = async (id: string) => (await t.request.get(one(id)).set(admin.auth).expect(200)).body;

describe("GET /v1/orgs/{organizationId}/translations", () => {
  it("lists the organization's settings oldest first, page by page", async () => {
    const { organizationId: org, admin: owner } = await t.organization();
    const made: string[] = [];
    for (const title of ["First", "Second", "Third"]) {
      const res = await t.request.post(collection(org)).set(owner.auth).send({ title }).expect(201);
      made.push(res.body.id);
      t.clock.advance(1000);
    }
    const first = await t.request
      .get(`${collection(org)}?limit=2`)
      .set(owner.auth)
      .expect(200);
    expect(first.body.count).toBe(3);
    expect(first.body.items.map((s: { id: string }) => s.id)).toEqual(made.slice(0, 2));
    expect(first.body.items[0]).toMatchObject({ title: "First", permissions: { view: true, edit: true } });
    const second = await t.request
      .get(`${collection(org)}?limit=2&page=${first.body.next.page}`)
      .set(owner.auth)
      .expect(200);
    expect(second.body.items.map((s: { id: string }) => s.id)).toEqual(made.slice(2));
    expect(second.body.next).toBeUndefined();
  });

  it("answers 404, 403 and 400", async () => {
    await t.request.get(collection()).set(outsider.auth).expect(404);
    await t.request.get(collection()).set(otherAdmin.auth).expect(404);
    for (const member of nonAdmins) await t.request.get(collection()).set(member.auth).expect(403);
    await t.request.get(`${collection()}?limit=-1`).set(admin.auth).expect(400);
    await t.request.get(`${collection()}?page=forged`).set(admin.auth).expect(400);
  });
});

describe("POST /v1/orgs/{organizationId}/translations", () => {
  it("creates settings without languages unless given", async () => {
    const res = await t.request.post(collection()).set(admin.auth).send({ title: "Handbook" }).expect(201);
    const now = t.clock.now().toISOString();
    expect(res.body).toMatchObject({
      object: "translation-settings",
      title: "Handbook",
      languages: [],
      createdAt: now,
      updatedAt: now,
      permissions: { view: true, edit: true },
    });
    expect(res.headers.location).toBe(res.body.urls.location);
    expect(res.body.urls.location).toBe(`http://quire.test${one(res.body.id)}`);
    expect(await readBack(res.body.id)).toEqual(res.body);
  });

  it("creates settings with languages, in the order given", async () => {
    const settings = await createSettings({ title: "Guides", languages: ["pt-br", "fr", "zh-tw", "yue"] });
    expect(settings.languages).toEqual(["pt-br", "fr", "zh-tw", "yue"]);
    expect((await readBack(settings.id)).languages).toEqual(["pt-br", "fr", "zh-tw", "yue"]);
  });

  it("answers 404, 403 and 400, creating nothing", async () => {
    const { organizationId: org, admin: owner } = await t.organization();
    const body = { title: "Docs" };
    await t.request.post(collection(org)).set(outsider.auth).send(body).expect(404);
    await t.request.post(collection(org)).set(admin.auth).send(body).expect(404);
    for (const role of ["read", "create"] as const) {
      const member = await t.user({ organizationId: org, role });
      await t.request.post(collection(org)).set(member.auth).send(body).expect(403);
    }
    for (const invalid of [
      {},
      { title: "" },
      { title: "t".repeat(101) },
      { title: "Docs", languages: ["klingon"] },
      { title: "Docs", languages: "fr" },
    ]) {
      await t.request.post(collection(org)).set(owner.auth).send(invalid).expect(400);
    }
    const repeated = await t.request
      .post(collection(org))
      .set(owner.auth)
      .send({ title: "Docs", languages: ["fr", "de", "fr"] })
      .expect(400);
    expect(repeated.body.error.message).toMatch(/languages must NOT have duplicate items/);
    const list = await t.request.get(collection(org)).set(owner.auth).expect(200);
    expect(list.body.count).toBe(0);
  });
});

describe("GET /v1/orgs/{organizationId}/translations/{translationSettingsId}", () => {
  it("returns the settings", async () => {
    const settings = await createSettings({ title: "Reference", languages: ["ja"] });
    const res = await t.request.get(one(settings.id)).set(admin.auth).expect(200);
    expect(res.body).toMatchObject({ id: settings.id, title: "Reference", languages: ["ja"] });
  });

  it("answers 404, 403 and 400", async () => {
    const settings = await createSettings();
    await t.request.get(one(settings.id)).set(outsider.auth).expect(404);
    await t.request.get(one(settings.id)).set(otherAdmin.auth).expect(404);
    // Through an organization the caller administers, the settings of another one are not found.
    await t.request.get(one(settings.id, otherOrganizationId)).set(otherAdmin.auth).expect(404);
    await t.request.get(one("unknown")).set(admin.auth).expect(404);
    for (const member of nonAdmins) await t.request.get(one(settings.id)).set(member.auth).expect(403);
    await t.request
      .get(`${one(settings.id)}?x=1`)
      .set(admin.auth)
      .expect(400);
  });
});

describe("PUT /v1/orgs/{organizationId}/translations/{translationSettingsId}", () => {
  it("replaces the title, keeping the languages when none are given", async () => {
    const settings = await createSettings({ title: "Old", languages: ["de", "es"] });
    t.clock.advance(60_000);
    const res = await t.request.put(one(settings.id)).set(admin.auth).send({ title: "New" }).expect(200);
    expect(res.body).toMatchObject({ title: "New", languages: ["de", "es"] });
    expect(res.body.updatedAt).toBe(t.clock.now().toISOString());
    expect(res.body.updatedAt).not.toBe(settings.updatedAt);
    expect(await readBack(settings.id)).toEqual(res.body);
  });

  it("replaces the languages when given, down to none", async () => {
    const settings = await createSettings({ title: "Docs", languages: ["de"] });
    const replaced = await t.request
      .put(one(settings.id))
      .set(admin.auth)
      .send({ title: "Docs", languages: ["sl", "et", "lv"] })
      .expect(200);
    expect(replaced.body.languages).toEqual(["sl", "et", "lv"]);
    expect((await readBack(settings.id)).languages).toEqual(["sl", "et", "lv"]);
    await t.request.put(one(settings.id)).set(admin.auth).send({ title: "Docs", languages: [] }).expect(200);
    expect((await readBack(settings.id)).languages).toEqual([]);
  });

  it("answers 404, 403 and 400, changing nothing", async () => {
    const settings = await createSettings({ title: "Kept", languages: ["it"] });
    const before = await readBack(settings.id);
    const body = { title: "Changed", languages: ["ko"] };
    await t.request.put(one(settings.id)).set(outsider.auth).send(body).expect(404);
    await t.request.put(one(settings.id)).set(otherAdmin.auth).send(body).expect(404);
    await t.request.put(one(settings.id, otherOrganizationId)).set(otherAdmin.auth).send(body).expect(404);
    await t.request.put(one("unknown")).set(admin.auth).send(body).expect(404);
    for (const member of nonAdmins) {
      await t.request.put(one(settings.id)).set(member.auth).send(body).expect(403);
    }
    for (const invalid of [
      {},
      { languages: ["ko"] },
      { title: "" },
      { title: "Changed", languages: ["xx"] },
      { title: "Changed", languages: ["ko", "ko"] },
    ]) {
      await t.request.put(one(settings.id)).set(admin.auth).send(invalid).expect(400);
    }
    expect(await readBack(settings.id)).toEqual(before);
  });
});

describe("DELETE /v1/orgs/{organizationId}/translations/{translationSettingsId}", () => {
  it("deletes the settings", async () => {
    const settings = await createSettings();
    const kept = await createSettings();
    await t.request.delete(one(settings.id)).set(admin.auth).expect(204);
    await t.request.get(one(settings.id)).set(admin.auth).expect(404);
    await t.request.delete(one(settings.id)).set(admin.auth).expect(404);
    expect((await readBack(kept.id)).id).toBe(kept.id);
  });

  it("answers 404, 403 and 400, deleting nothing", async () => {
    const settings = await createSettings();
    await t.request.delete(one(settings.id)).set(outsider.auth).expect(404);
    await t.request.delete(one(settings.id)).set(otherAdmin.auth).expect(404);
    await t.request.delete(one(settings.id, otherOrganizationId)).set(otherAdmin.auth).expect(404);
    for (const member of nonAdmins) await t.request.delete(one(settings.id)).set(member.auth).expect(403);
    await t.request
      .delete(`${one(settings.id)}?x=1`)
      .set(admin.auth)
      .expect(400);
    expect((await readBack(settings.id)).id).toBe(settings.id);
  });
});
