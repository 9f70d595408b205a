import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DELETED_SPACE_RETENTION_MS, purgeExpiredSpaces } from "../spaces/store.js";
import { buildNestedSpace, buildSpace } from "../testing/factories.js";
import { joinOrganization } from "../testing/fixtures.js";
import { createOrganizationScenario, type TestApp, type TestUser } from "../testing/harness.js";

let t: TestApp;
let organizationId: string;
let admin: TestUser;
let reader: TestUser;
let outsider: TestUser;
/** A member whose membership is a guest's (no organization role). */
let guest: TestUser;

beforeAll(async () => {
  ({ t, organizationId, admin, reader, outsider, guest } = await createOrganizationScenario({
    users: { guest: "guest" },
  }));
});
afterAll(() => t.close());

const fieldsUrl = (org = organizationId) => `/v1/orgs/${org}/custom-fields`;
const fieldUrl = (name: string, org = organizationId) => `${fieldsUrl(org)}/${name}`;
const valuesUrl = (spaceId: string) => `/v1/spaces/${spaceId}/custom-fields`;

let counter = 0;
/** A name no other test uses, since all share one organization. */
const uniqueName = (prefix: string) => `${prefix}-${++counter}`;

/** Creates a field through the API as the organization's admin. */
async function createField(body: Record<string, unknown>, org = organizationId, owner = admin) {
  const res = await t.request.post(fieldsUrl(org)).set(owner.auth).send(body).expect(201);
  return res.body as { name: string; updatedAt: string };
}

/** The values of a space as the API reads them back, by field name (fields without one left out). */
async function valuesOf(spaceId: string, user = admin): Promise<Record<string, unknown>> {
  const res = await t.request.get(valuesUrl(spaceId)).set(user.auth).expect(200);
  const items = res.body as { customField: { name: string }; value?: unknown }[];
  return Object.fromEntries(items.filter((i) => "value" in i).map((i) => [i.customField.name, i.value]));
}

/** The rows stored for a space's values, read past the API. */
const storedValuesOf = (spaceId: string) =>
  t.db.selectFrom("space_custom_field_values").select("value").where("space_id", "=", spaceId).execute();

/** Sets values as `{ values: { <name>: { value } } }`. */
const setValues = (spaceId: string, values: Record<string, unknown>, user = admin) =>
  t.request
    .patch(valuesUrl(spaceId))
    .set(user.auth)
    .send({ values: Object.fromEntries(Object.entries(values).map(([name, value]) => [name, { value }])) });

describe("POST /v1/orgs/{organizationId}/custom-fields", () => {
  it("creates a field with defaults, at its Location", async () => {
    const name = uniqueName("audience");
    const res = await t.request.post(fieldsUrl()).set(admin.auth).send({ name, type: "text" }).expect(201);
    expect(res.body).toEqual({
      id: expect.any(String),
      name,
      title: name,
      description: "",
      type: "text",
      placeholder: "",
      createdAt: t.clock.now().toISOString(),
      updatedAt: t.clock.now().toISOString(),
      urls: { location: `http://quire.test${fieldUrl(name)}` },
      permissions: { view: true, edit: true },
    });
    expect(res.headers.location).toBe(res.body.urls.location);
    const read = await t.request.get(fieldUrl(name)).set(admin.auth).expect(200);
    expect(read.body).toEqual(res.body);
  });

  it("creates a field of every type, select fields with their options", async () => {
    const { organizationId: org, admin: owner } = await t.organization();
    const bodies = [
      { name: "summary", type: "text", title: "Summary", description: "In a line", placeholder: "…" },
      { name: "pages", type: "number" },
      { name: "public", type: "boolean" },
      { name: "labels", type: "tags" },
      { name: "teams", type: "select:multi", options: ["docs", "eng"] },
      { name: "status", type: "select:single", options: ["draft", "final"] },
    ];
    for (const body of bodies) await createField(body, org, owner);
    const list = await t.request.get(fieldsUrl(org)).set(owner.auth).expect(200);
    expect(list.body.items).toEqual(bodies.map((body) => expect.objectContaining(body)));
  });

  it("answers 404 to a non-member and 403 to a reader, creating nothing", async () => {
    const name = uniqueName("nope");
    await t.request.post(fieldsUrl()).set(outsider.auth).send({ name, type: "text" }).expect(404);
    const res = await t.request.post(fieldsUrl()).set(reader.auth).send({ name, type: "text" }).expect(403);
    expect(res.body.error.message).toContain("custom fields");
    await t.request.get(fieldUrl(name)).set(admin.auth).expect(404);
  });

  it("answers 400 for options missing, misplaced or repeated, and for a name or type out of the contract", async () => {
    const name = uniqueName("bad");
    const cases: [Record<string, unknown>, string][] = [
      [{ name, type: "select:single" }, "needs options"],
      [{ name, type: "select:multi" }, "needs options"],
      [{ name, type: "text", options: ["a"] }, "takes no options"],
      [{ name, type: "select:multi", options: ["a", "a"] }, "duplicate"],
      [{ name, type: "select:single", options: [] }, "options"],
      [{ name: "Not A Name", type: "text" }, "name"],
      [{ name: "x".repeat(51), type: "text" }, "name"],
      [{ name, type: "date" }, "type"],
      [{ name, type: "text", title: "x".repeat(101) }, "title"],
    ];
    for (const [body, message] of cases) {
      const res = await t.request.post(fieldsUrl()).set(admin.auth).send(body).expect(400);
      expect(res.body.error.message).toContain(message);
    }
    await t.request.get(fieldUrl(name)).set(admin.auth).expect(404);
  });

  it("answers 409 for a name the organization already has, and allows it in another", async () => {
    const name = uniqueName("taken");
    await createField({ name, type: "text", title: "First" });
    await t.request.post(fieldsUrl()).set(admin.auth).send({ name, type: "number" }).expect(409);
    const read = await t.request.get(fieldUrl(name)).set(admin.auth).expect(200);
    expect(read.body).toMatchObject({ title: "First", type: "text" });
    const other = await t.organization();
    await createField({ name, type: "number" }, other.organizationId, other.admin);
  });
});

describe("GET /v1/orgs/{organizationId}/custom-fields", () => {
  it("lists the fields oldest first, page by page, with the caller's permissions", async () => {
    const { organizationId: org, admin: owner } = await t.organization();
    const member = await t.user({ organizationId: org, role: "create" });
    for (const name of ["c", "a", "b"]) {
      await createField({ name, type: "text" }, org, owner);
      t.clock.advance(1000);
    }
    const first = await t.request
      .get(`${fieldsUrl(org)}?limit=2`)
      .set(member.auth)
      .expect(200);
    expect(first.body.count).toBe(3);
    expect(first.body.items.map((f: { name: string }) => f.name)).toEqual(["c", "a"]);
    expect(first.body.items[0].permissions).toEqual({ view: true, edit: false });
    const second = await t.request
      .get(fieldsUrl(org))
      .query({ limit: 2, page: first.body.next.page })
      .set(member.auth)
      .expect(200);
    expect(second.body.items.map((f: { name: string }) => f.name)).toEqual(["b"]);
    expect(second.body.next).toBeUndefined();
  });

  it("lists nothing for an organization without fields", async () => {
    const { organizationId: org, admin: owner } = await t.organization();
    const res = await t.request.get(fieldsUrl(org)).set(owner.auth).expect(200);
    expect(res.body).toEqual({ count: 0, items: [] });
  });

  it("answers 404 to a non-member, 403 to a guest, and 400 for a bad page", async () => {
    await t.request.get(fieldsUrl()).set(outsider.auth).expect(404);
    await t.request.get(fieldsUrl()).set(guest.auth).expect(403);
    await t.request.get(`${fieldsUrl()}?limit=-1`).set(admin.auth).expect(400);
    await t.request.get(`${fieldsUrl()}?page=garbage`).set(admin.auth).expect(400);
  });
});

describe("GET /v1/orgs/{organizationId}/custom-fields/{fieldName}", () => {
  it("returns the field to a reader, who may not edit it", async () => {
    const name = uniqueName("product");
    await createField({ name, type: "select:single", options: ["a", "b"] });
    const res = await t.request.get(fieldUrl(name)).set(reader.auth).expect(200);
    expect(res.body).toMatchObject({ name, type: "select:single", options: ["a", "b"] });
    expect(res.body.permissions).toEqual({ view: true, edit: false });
  });

  it("answers 404 for another organization or an unknown name, 403 to a guest, 400 for a bad name", async () => {
    const name = uniqueName("seen");
    await createField({ name, type: "text" });
    await t.request.get(fieldUrl(name)).set(outsider.auth).expect(404);
    const other = await t.organization();
    await t.request.get(fieldUrl(name)).set(other.admin.auth).expect(404);
    await t.request.get(fieldUrl("unknown")).set(admin.auth).expect(404);
    await t.request.get(fieldUrl(name)).set(guest.auth).expect(403);
    await t.request.get(fieldUrl("%E0%A4%A")).set(admin.auth).expect(400);
  });
});

describe("PATCH /v1/orgs/{organizationId}/custom-fields/{fieldName}", () => {
  it("changes the fields given and keeps the others", async () => {
    const name = uniqueName("owner");
    const before = await createField({ name, type: "text", title: "Owner", description: "Who owns it" });
    t.clock.advance(1000);
    const res = await t.request
      .patch(fieldUrl(name))
      .set(admin.auth)
      .send({ title: "Owning team", placeholder: "A team" })
      .expect(200);
    expect(res.body).toMatchObject({
      name,
      type: "text",
      title: "Owning team",
      description: "Who owns it",
      placeholder: "A team",
      updatedAt: t.clock.now().toISOString(),
    });
    expect(res.body.updatedAt).not.toBe(before.updatedAt);
    const read = await t.request.get(fieldUrl(name)).set(admin.auth).expect(200);
    expect(read.body).toEqual(res.body);
  });

  it("changes nothing, not even updatedAt, for an empty body", async () => {
    const name = uniqueName("same");
    const before = await createField({ name, type: "number" });
    t.clock.advance(1000);
    const res = await t.request.patch(fieldUrl(name)).set(admin.auth).send({}).expect(200);
    expect(res.body.updatedAt).toBe(before.updatedAt);
  });

  it("takes options removed from the list out of every space's value", async () => {
    const multi = uniqueName("multi");
    const single = uniqueName("single");
    const kept = uniqueName("kept");
    await createField({ name: multi, type: "select:multi", options: ["a", "b", "c"] });
    await createField({ name: single, type: "select:single", options: ["a", "b"] });
    await createField({ name: kept, type: "select:single", options: ["a", "b"] });
    const one = await buildSpace(t, { organization_id: organizationId });
    const two = await buildSpace(t, { organization_id: organizationId });
    await setValues(one.id, { [multi]: ["c", "a", "b"], [single]: "a", [kept]: "b" }).expect(204);
    await setValues(two.id, { [multi]: ["b"], [single]: "b" }).expect(204);

    await t.request
      .patch(fieldUrl(multi))
      .set(admin.auth)
      .send({ options: ["c", "a", "d"] })
      .expect(200);
    await t.request
      .patch(fieldUrl(single))
      .set(admin.auth)
      .send({ options: ["b"] })
      .expect(200);
    await t.request
      .patch(fieldUrl(kept))
      .set(admin.auth)
      .send({ options: ["b", "a", "c"] })
      .expect(200);

    expect(await valuesOf(one.id)).toEqual({ [multi]: ["c", "a"], [kept]: "b" });
    expect(await valuesOf(two.id)).toEqual({ [multi]: [], [single]: "b" });
    const read = await t.request.get(fieldUrl(multi)).set(admin.auth).expect(200);
    expect(read.body.options).toEqual(["c", "a", "d"]);
  });

  it("answers 404 for another organization or an unknown name, and 403 to a reader, changing nothing", async () => {
    const name = uniqueName("guarded");
    await createField({ name, type: "text", title: "Guarded" });
    await t.request.patch(fieldUrl(name)).set(outsider.auth).send({ title: "x" }).expect(404);
    await t.request.patch(fieldUrl("unknown")).set(admin.auth).send({ title: "x" }).expect(404);
    await t.request.patch(fieldUrl(name)).set(reader.auth).send({ title: "x" }).expect(403);
    const read = await t.request.get(fieldUrl(name)).set(admin.auth).expect(200);
    expect(read.body.title).toBe("Guarded");
  });

  it("answers 400 for options on a field that takes none, or options out of the contract", async () => {
    const text = uniqueName("text");
    const select = uniqueName("select");
    await createField({ name: text, type: "text" });
    await createField({ name: select, type: "select:single", options: ["a"] });
    const cases: [string, Record<string, unknown>, string][] = [
      [text, { options: ["a"] }, "takes no options"],
      [select, { options: [] }, "options"],
      [select, { options: ["a", "a"] }, "duplicate"],
      [select, { options: ["x".repeat(41)] }, "options"],
      [select, { description: "x".repeat(201) }, "description"],
    ];
    for (const [name, body, message] of cases) {
      const res = await t.request.patch(fieldUrl(name)).set(admin.auth).send(body).expect(400);
      expect(res.body.error.message).toContain(message);
    }
    const read = await t.request.get(fieldUrl(select)).set(admin.auth).expect(200);
    expect(read.body).toMatchObject({ options: ["a"], description: "" });
  });
});

describe("DELETE /v1/orgs/{organizationId}/custom-fields/{fieldName}", () => {
  it("deletes the field and its value on every space", async () => {
    const name = uniqueName("gone");
    await createField({ name, type: "tags" });
    const space = await buildSpace(t, { organization_id: organizationId });
    await setValues(space.id, { [name]: ["x"] }).expect(204);

    await t.request.delete(fieldUrl(name)).set(admin.auth).expect(204);
    await t.request.get(fieldUrl(name)).set(admin.auth).expect(404);
    const listed = await t.request.get(valuesUrl(space.id)).set(admin.auth).expect(200);
    expect(listed.body.map((v: { customField: { name: string } }) => v.customField.name)).not.toContain(name);
    // A new field of the same name starts without the old one's values.
    await createField({ name, type: "tags" });
    expect(await valuesOf(space.id)).not.toHaveProperty(name);
    expect(await storedValuesOf(space.id)).toEqual([]);
  });

  it("answers 404 for another organization or an unknown name, 403 to a reader, 400 for a bad name", async () => {
    const name = uniqueName("kept");
    await createField({ name, type: "text" });
    await t.request.delete(fieldUrl(name)).set(outsider.auth).expect(404);
    await t.request.delete(fieldUrl("unknown")).set(admin.auth).expect(404);
    await t.request.delete(fieldUrl(name)).set(reader.auth).expect(403);
    await t.request.delete(fieldUrl("%E0%A4%A")).set(admin.auth).expect(400);
    await t.request.get(fieldUrl(name)).set(admin.auth).expect(200);
  });
});

describe("GET /v1/spaces/{spaceId}/custom-fields", () => {
  it("lists every field of the organization in its order, with the space's value when it has one", async () => {
    const { organizationId: org, admin: owner } = await t.organization();
    const member = await t.user({ organizationId: org, role: "read" });
    await createField({ name: "pages", type: "number" }, org, owner);
    t.clock.advance(1000);
    await createField({ name: "status", type: "select:single", options: ["draft"] }, org, owner);
    const space = await buildSpace(t, { organization_id: org });
    await setValues(space.id, { status: "draft" }, owner).expect(204);

    const res = await t.request.get(valuesUrl(space.id)).set(member.auth).expect(200);
    expect(res.body).toEqual([
      { customField: expect.objectContaining({ name: "pages", permissions: { view: true, edit: false } }) },
      { customField: expect.objectContaining({ name: "status", options: ["draft"] }), value: "draft" },
    ]);
  });

  it("reads a deleted space's values while it can be restored", async () => {
    const name = uniqueName("archived");
    await createField({ name, type: "boolean" });
    const space = await buildSpace(t, { organization_id: organizationId });
    await setValues(space.id, { [name]: true }).expect(204);
    await t.request.delete(`/v1/spaces/${space.id}`).set(admin.auth).expect(204);
    expect(await valuesOf(space.id)).toMatchObject({ [name]: true });
  });

  it("answers 404 for a space of another organization, an unknown space or a guest, 400 for a bad id", async () => {
    const other = await t.organization();
    const foreign = await buildSpace(t, { organization_id: other.organizationId });
    const space = await buildSpace(t, { organization_id: organizationId });
    await t.request.get(valuesUrl(foreign.id)).set(admin.auth).expect(404);
    await t.request.get(valuesUrl("unknown")).set(admin.auth).expect(404);
    await t.request.get(valuesUrl(space.id)).set(guest.auth).expect(404);
    await t.request.get(valuesUrl("%E0%A4%A")).set(admin.auth).expect(400);
  });
});

describe("PATCH /v1/spaces/{spaceId}/custom-fields", () => {
  /** One field of each type in a new organization, with a space there. */
  async function fieldsOfEveryType() {
    const { organizationId: org, admin: owner } = await t.organization();
    for (const body of [
      { name: "summary", type: "text" },
      { name: "pages", type: "number" },
      { name: "public", type: "boolean" },
      { name: "labels", type: "tags" },
      { name: "teams", type: "select:multi", options: ["docs", "eng", "ops"] },
      { name: "status", type: "select:single", options: ["draft", "final"] },
    ])
      await createField(body, org, owner);
    const space = await buildSpace(t, { organization_id: org });
    return { org, owner, space };
  }

  it("sets a value of every type, lists without repeats, and keeps the fields not named", async () => {
    const { owner, space } = await fieldsOfEveryType();
    await setValues(space.id, { summary: "Old", pages: 3 }, owner).expect(204);
    await setValues(
      space.id,
      {
        summary: "The handbook",
        public: false,
        labels: ["b", "a", "b"],
        teams: ["eng", "docs", "eng"],
        status: "final",
      },
      owner,
    ).expect(204);
    await setValues(space.id, {}, owner).expect(204);
    expect(await valuesOf(space.id, owner)).toEqual({
      summary: "The handbook",
      pages: 3,
      public: false,
      labels: ["b", "a"],
      teams: ["eng", "docs"],
      status: "final",
    });
  });

  it("clears values given as null", async () => {
    const { owner, space } = await fieldsOfEveryType();
    await setValues(space.id, { pages: 1.5, status: "draft", labels: [] }, owner).expect(204);
    await setValues(space.id, { pages: null, status: null, summary: null }, owner).expect(204);
    expect(await valuesOf(space.id, owner)).toEqual({ labels: [] });
  });

  it("answers 400 naming the field for a value that does not fit its type, and sets none of the values", async () => {
    const { owner, space } = await fieldsOfEveryType();
    await setValues(space.id, { summary: "Before" }, owner).expect(204);
    const cases: [string, unknown][] = [
      ["summary", 5],
      ["summary", ["a"]],
      ["pages", "5"],
      ["public", "yes"],
      ["labels", "a"],
      ["labels", ["a", ""]],
      ["teams", ["docs", "sales"]],
      ["teams", "docs"],
      ["status", "gone"],
      ["status", ["draft"]],
    ];
    for (const [name, value] of cases) {
      const res = await setValues(space.id, { summary: "After", [name]: value }, owner).expect(400);
      expect(res.body.error.message).toContain(`\`${name}\``);
    }
    const unknown = await setValues(space.id, { summary: "After", nope: "x" }, owner).expect(400);
    expect(unknown.body.error.message).toContain("`nope`");
    await setValues(space.id, { summary: "x".repeat(257) }, owner).expect(400);
    await t.request.patch(valuesUrl(space.id)).set(owner.auth).send({}).expect(400);
    expect(await valuesOf(space.id, owner)).toEqual({ summary: "Before" });
  });

  it("lets an admin of the space set values without being an admin of the organization", async () => {
    const { org, space } = await fieldsOfEveryType();
    const member = await t.user({ organizationId: org, role: "read" });
    await t.db.updateTable("spaces").set({ default_level: "admin" }).where("id", "=", space.id).execute();
    await setValues(space.id, { pages: 7 }, member).expect(204);
    expect(await valuesOf(space.id, member)).toEqual({ pages: 7 });
  });

  it("answers 404 for a space of another organization, 403 below space admin, changing nothing", async () => {
    const { org, owner, space } = await fieldsOfEveryType();
    const editor = await t.user({ organizationId: org, role: "create" });
    await setValues(space.id, { pages: 1 }, admin).expect(404);
    await setValues("unknown", { pages: 1 }, owner).expect(404);
    const res = await setValues(space.id, { pages: 1 }, editor).expect(403);
    expect(res.body.error.message).toContain("custom fields of this space");
    expect(await valuesOf(space.id, owner)).toEqual({});
  });

  it("answers 409 for a deleted space, after checking the values", async () => {
    const { owner, space } = await fieldsOfEveryType();
    await t.request.delete(`/v1/spaces/${space.id}`).set(owner.auth).expect(204);
    await setValues(space.id, { pages: "many" }, owner).expect(400);
    await setValues(space.id, { pages: 1 }, owner).expect(409);
    expect(await valuesOf(space.id, owner)).toEqual({});
  });

  it("removes a space's values with the space when it is purged", async () => {
    const { owner, space } = await fieldsOfEveryType();
    await setValues(space.id, { pages: 2, labels: ["x"] }, owner).expect(204);
    await t.request.delete(`/v1/spaces/${space.id}`).set(owner.auth).expect(204);
    const later = new Date(t.clock.now().getTime() + DELETED_SPACE_RETENTION_MS + 1);
    expect(await purgeExpiredSpaces(t.db, later)).toBeGreaterThanOrEqual(1);
    expect(await storedValuesOf(space.id)).toEqual([]);
  });
});

describe("a space that moves to another organization", () => {
  /** An admin of a new organization who is also an admin of another one, with a text field there. */
  async function twoOrganizations() {
    const from = await t.organization();
    const to = await t.organization();
    await joinOrganization(t, to.organizationId, from.admin, "admin");
    const name = uniqueName("note");
    await createField({ name, type: "text" }, from.organizationId, from.admin);
    return { from, to, name };
  }

  it("leaves its values behind when transferred alone", async () => {
    const { from, to, name } = await twoOrganizations();
    const space = await buildSpace(t, { organization_id: from.organizationId });
    await setValues(space.id, { [name]: "kept in the old organization" }, from.admin).expect(204);
    await t.request
      .post(`/v1/spaces/${space.id}/transfer`)
      .set(from.admin.auth)
      .send({ organization: to.organizationId })
      .expect(200);
    expect(await valuesOf(space.id, from.admin)).toEqual({});
    expect(await storedValuesOf(space.id)).toEqual([]);
  });

  it("leaves its values behind when its collection is transferred", async () => {
    const { from, to, name } = await twoOrganizations();
    const { collection, space } = await buildNestedSpace(t, { organization_id: from.organizationId });
    const staying = await buildSpace(t, { organization_id: from.organizationId });
    await setValues(space.id, { [name]: "moves" }, from.admin).expect(204);
    await setValues(staying.id, { [name]: "stays" }, from.admin).expect(204);
    await t.request
      .post(`/v1/collections/${collection.id}/transfer`)
      .set(from.admin.auth)
      .send({ organization: to.organizationId })
      .expect(200);
    expect(await storedValuesOf(space.id)).toEqual([]);
    expect(await valuesOf(staying.id, from.admin)).toEqual({ [name]: "stays" });
  });
});
