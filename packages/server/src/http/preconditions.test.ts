import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadApiSpec } from "../spec.js";
import { buildSpace } from "../testing/factories.js";
import { createTestApp, type TestApp, type TestUser } from "../testing/harness.js";
import { compileContract } from "./contract.js";
import { entityTag, ifMatchHolds } from "./preconditions.js";

let t: TestApp;
let admin: TestUser;
let organizationId: string;
beforeAll(async () => {
  t = await createTestApp();
  ({ admin, organizationId } = await t.organization());
});
afterAll(() => t.close());

const titleOf = async (spaceId: string) =>
  (await t.db.selectFrom("spaces").select("title").where("id", "=", spaceId).executeTakeFirstOrThrow()).title;

describe("entityTag", () => {
  const text = JSON.stringify({ object: "space", title: "Guide 📄", comments: 3 });

  it("gives one text one strong tag of 64 bits, in hex", () => {
    expect(entityTag(text)).toMatch(/^"[0-9a-f]{16}"$/);
    expect(entityTag(text)).toBe(entityTag(JSON.stringify(JSON.parse(text))));
  });

  it("gives another tag to every text that differs from it in one unit", () => {
    const texts = new Set([text]);
    for (let i = 0; i < text.length; i++)
      for (const unit of ["x", "y", "\u00e9", "\ud83d"])
        texts.add(text.slice(0, i) + unit + text.slice(i + 1));
    expect(texts.size).toBeGreaterThan(3 * text.length);
    expect(new Set([...texts].map(entityTag)).size).toBe(texts.size);
  });

  it("tells apart texts of other lengths and the empty text", () => {
    const tags = ["", "{}", "{} ", text, `${text} `].map(entityTag);
    expect(new Set(tags).size).toBe(tags.length);
  });
});

describe("ETag and If-Match", () => {
  it("tags a resource, and refuses a write whose If-Match names an older representation", async () => {
    const space = await buildSpace(t, { organization_id: organizationId, title: "First" });
    const read = await t.request.get(`/v1/spaces/${space.id}`).set(admin.auth).expect(200);
    const tag = read.headers.etag as string;
    expect(tag).toMatch(/^"[0-9a-f]{16}"$/);
    expect((await t.request.get(`/v1/spaces/${space.id}`).set(admin.auth)).headers.etag).toBe(tag);

    const changed = await t.request
      .patch(`/v1/spaces/${space.id}`)
      .set(admin.auth)
      .set("If-Match", tag)
      .send({ title: "Second" })
      .expect(200);
    expect(changed.body.title).toBe("Second");

    const stale = await t.request
      .patch(`/v1/spaces/${space.id}`)
      .set(admin.auth)
      .set("If-Match", tag)
      .send({ title: "Lost" })
      .expect(412);
    expect(stale.body).toEqual({
      error: { code: 412, type: "etag_mismatch", message: expect.stringContaining("changed since") },
    });
    expect(await titleOf(space.id)).toBe("Second");

    const fresh = (await t.request.get(`/v1/spaces/${space.id}`).set(admin.auth)).headers.etag as string;
    expect(fresh).not.toBe(tag);
    await t.request
      .patch(`/v1/spaces/${space.id}`)
      .set(admin.auth)
      .set("If-Match", `"other", ${fresh}`)
      .send({ title: "Third" })
      .expect(200);
    await t.request
      .patch(`/v1/spaces/${space.id}`)
      .set(admin.auth)
      .set("If-Match", "*")
      .send({ title: "Fourth" })
      .expect(200);
    expect(await titleOf(space.id)).toBe("Fourth");
  });

  it("lets one of two writes made from the same representation through, and refuses the other", async () => {
    const space = await buildSpace(t, { organization_id: organizationId, title: "Shared" });
    const tag = (await t.request.get(`/v1/spaces/${space.id}`).set(admin.auth)).headers.etag as string;
    const answers = await Promise.all(
      ["Mine", "Yours"].map((title) =>
        t.request.patch(`/v1/spaces/${space.id}`).set(admin.auth).set("If-Match", tag).send({ title }),
      ),
    );
    expect(answers.map((res) => res.status).sort()).toEqual([200, 412]);
    const winner = answers.find((res) => res.status === 200);
    expect(await titleOf(space.id)).toBe(winner?.body.title);
  });

  it("tags reads of one resource, not pages of lists", async () => {
    const list = await t.request.get(`/v1/orgs/${organizationId}/spaces`).set(admin.auth).expect(200);
    expect(list.headers.etag).toBeUndefined();
    const one = await t.request.get(`/v1/orgs/${organizationId}`).set(admin.auth).expect(200);
    expect(one.headers.etag).toMatch(/^"/);
  });

  it("declares 412 on every PATCH and PUT whose path has a read of one resource, and only there", () => {
    const spec = loadApiSpec();
    const operations = compileContract(spec, { validateResponses: false });
    const readsOne = new Set(operations.filter((o) => o.readsOneResource).map((o) => o.path));
    const declares412 = (o: (typeof operations)[number]) => {
      const declared = spec.paths[o.path]?.[o.method] as { responses?: Record<string, unknown> } | undefined;
      return declared?.responses?.["412"] !== undefined;
    };
    const guarded = operations.filter(
      (o) => (o.method === "patch" || o.method === "put") && readsOne.has(o.path),
    );
    expect(guarded.length).toBeGreaterThan(15);
    expect(guarded.filter((o) => !declares412(o)).map((o) => o.operationId)).toEqual([]);
  });

  it("guards the people area's writes too: a stale team title is refused", async () => {
    const team = await t.request
      .put(`/v1/orgs/${organizationId}/teams`)
      .set(admin.auth)
      .send({ title: "Writers" })
      .expect(201);
    const path = `/v1/orgs/${organizationId}/teams/${team.body.id}`;
    const tag = (await t.request.get(path).set(admin.auth).expect(200)).headers.etag as string;
    await t.request.patch(path).set(admin.auth).set("If-Match", tag).send({ title: "Editors" }).expect(200);
    await t.request.patch(path).set(admin.auth).set("If-Match", tag).send({ title: "Lost" }).expect(412);
    expect((await t.request.get(path).set(admin.auth)).body.title).toBe("Editors");
  });

  it("compares tags strongly", () => {
    expect(ifMatchHolds('"a", "b"', '"b"')).toBe(true);
    expect(ifMatchHolds('W/"b"', '"b"')).toBe(false);
    expect(ifMatchHolds(" * ", '"b"')).toBe(true);
  });
});
