import type { Schema } from "@quire/api-types";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { joinOrganization } from "../../testing/fixtures.js";
import { buildSpaces, createSite, createSiteScenario, type SiteScenario, sitePath } from "../testing.js";

let s: SiteScenario;
beforeAll(async () => {
  s = await createSiteScenario();
});
afterAll(() => s.t.close());

type SiteSpace = Schema<"SiteSpace">;

/** A site whose root links new spaces of these titles, in order. */
async function siteWithSpaces(...titles: string[]) {
  const spaces = await buildSpaces(s, ...titles);
  const site = await createSite(s, { spaces: spaces.map((space) => space.id) });
  const path = (rest = "") => sitePath(s.organizationId, site.id, rest);
  const links = async (query = ""): Promise<SiteSpace[]> =>
    (
      await s.t.request
        .get(path(`/site-spaces${query}`))
        .set(s.admin.auth)
        .expect(200)
    ).body.items;
  const titlesInOrder = async () => (await links()).map((l) => l.title);
  return { site, path, spaces, links, titlesInOrder, initial: await links() };
}

describe("GET /v1/orgs/{organizationId}/sites/{siteId}/site-spaces", () => {
  it("lists site spaces in structure order, by default flag, in pages", async () => {
    const { path, links, spaces } = await siteWithSpaces("Root one", "Root two");
    const [extra] = await buildSpaces(s, "Extra");
    const section = await s.t.request
      .post(path("/sections"))
      .set(s.admin.auth)
      .send({ spaceId: extra?.id })
      .expect(201);
    const all = await links();
    expect(all.map((l) => [l.title, l.default, l.section])).toEqual([
      ["Root one", true, all[0]?.section],
      ["Root two", false, all[0]?.section],
      ["Extra", true, section.body.id],
    ]);
    expect(all[0]?.space).toMatchObject({
      id: spaces[0]?.id,
      object: "space",
      permissions: { access: true, admin: true },
    });
    expect((await links("?default=true")).map((l) => l.title)).toEqual(["Root one", "Extra"]);
    expect((await links("?default=false")).map((l) => l.title)).toEqual(["Root two"]);
    const first = await s.t.request.get(path("/site-spaces?limit=2")).set(s.reader.auth).expect(200);
    expect(first.body.count).toBe(3);
    expect(first.body.items.map((l: SiteSpace) => l.title)).toEqual(["Root one", "Root two"]);
    // The embedded space carries the reader's permissions on it, as GitBook's Space does.
    expect(first.body.items[0].space.permissions).toEqual({
      view: true,
      access: true,
      admin: false,
      viewInviteLinks: false,
      edit: false,
      triggerGitSync: false,
      comment: false,
      merge: false,
      review: false,
      installIntegration: false,
    });
    const second = await s.t.request
      .get(path(`/site-spaces?limit=2&page=${first.body.next.page}`))
      .set(s.reader.auth)
      .expect(200);
    expect(second.body.items.map((l: SiteSpace) => l.title)).toEqual(["Extra"]);
  });

  it("answers 404, 403 to a guest and 400", async () => {
    const { path } = await siteWithSpaces("L");
    await s.t.request.get(path("/site-spaces")).set(s.outsider.auth).expect(404);
    await s.t.request.get(path("/site-spaces")).set(s.stranger.auth).expect(404);
    await s.t.request.get(path("/site-spaces")).set(s.guest.auth).expect(403);
    await s.t.request.get(path("/site-spaces?default=maybe")).set(s.admin.auth).expect(400);
  });
});

describe("POST /v1/orgs/{organizationId}/sites/{siteId}/site-spaces", () => {
  it("adds at the root, in a section, or in the default section when none is named", async () => {
    const [a, b, c] = await buildSpaces(s, "Alpha", "Alpha", "Gamma");
    const site = await createSite(s);
    const path = (rest = "") => sitePath(s.organizationId, site.id, rest);
    const first = await s.t.request
      .post(path("/site-spaces"))
      .set(s.creator.auth)
      .send({ spaceId: a?.id })
      .expect(201);
    expect(first.headers.location).toBe(`http://quire.test${path(`/site-spaces/${first.body.id}`)}`);
    expect(first.body).toMatchObject({ object: "site-space", title: "Alpha", path: "alpha", default: true });
    expect(first.body.section).toBeUndefined();
    const second = await s.t.request
      .post(path("/site-spaces"))
      .set(s.admin.auth)
      .send({ spaceId: b?.id })
      .expect(201);
    expect(second.body).toMatchObject({ path: "alpha-2", default: false });
    await s.t.request.post(path("/site-spaces")).set(s.admin.auth).send({ spaceId: a?.id }).expect(409);

    const section = (
      await s.t.request
        .post(path("/sections"))
        .set(s.admin.auth)
        .send({ spaceId: c?.id, title: "Other" })
        .expect(201)
    ).body;
    const sections = (await s.t.request.get(path("/sections")).set(s.admin.auth)).body.items;
    const defaultSection = sections.find((x: { default: boolean }) => x.default);
    const intoDefault = await s.t.request
      .post(path("/site-spaces"))
      .set(s.admin.auth)
      .send({ spaceId: c?.id })
      .expect(201);
    expect(intoDefault.body).toMatchObject({ section: defaultSection.id, default: false, path: "gamma" });
    const intoSection = await s.t.request
      .post(path("/site-spaces"))
      .set(s.admin.auth)
      .send({ spaceId: a?.id, sectionId: section.id })
      .expect(201);
    expect(intoSection.body).toMatchObject({ section: section.id, default: false });
    await s.t.request
      .post(path("/site-spaces"))
      .set(s.admin.auth)
      .send({ spaceId: c?.id, sectionId: section.id })
      .expect(409);
    expect((await s.t.request.get(path()).set(s.admin.auth)).body.siteSpaces).toBe(5);
  });

  it("answers 404, 403 and 400, adding nothing", async () => {
    const { path } = await siteWithSpaces("Only");
    const [space] = await buildSpaces(s, "Candidate");
    const deleted = (await buildSpaces(s, "Gone"))[0];
    await s.t.request.delete(`/v1/spaces/${deleted?.id}`).set(s.admin.auth).expect(204);
    const body = { spaceId: space?.id };
    await s.t.request.post(path("/site-spaces")).set(s.outsider.auth).send(body).expect(404);
    await s.t.request
      .post(sitePath(s.organizationId, "missing", "/site-spaces"))
      .set(s.admin.auth)
      .send(body)
      .expect(404);
    await s.t.request.post(path("/site-spaces")).set(s.reader.auth).send(body).expect(403);
    await s.t.request.post(path("/site-spaces")).set(s.admin.auth).send({}).expect(400);
    await s.t.request.post(path("/site-spaces")).set(s.admin.auth).send({ spaceId: "missing" }).expect(400);
    await s.t.request.post(path("/site-spaces")).set(s.admin.auth).send({ spaceId: deleted?.id }).expect(400);
    await s.t.request
      .post(path("/site-spaces"))
      .set(s.admin.auth)
      .send({ ...body, sectionId: "missing" })
      .expect(400);
    expect((await s.t.request.get(path("/site-spaces")).set(s.admin.auth)).body.count).toBe(1);
  });
});

describe("PATCH /v1/orgs/{organizationId}/sites/{siteId}/site-spaces/{siteSpaceId}", () => {
  it("changes the path and the condition", async () => {
    const { path, initial } = await siteWithSpaces("One", "Two");
    const [one] = initial as [SiteSpace];
    const res = await s.t.request
      .patch(path(`/site-spaces/${one.id}`))
      .set(s.creator.auth)
      .send({ path: "first", condition: "['pro'].includes(visitor.claims.plan)" })
      .expect(200);
    expect(res.body).toMatchObject({ path: "first", condition: "['pro'].includes(visitor.claims.plan)" });
    const listed = (await s.t.request.get(path("/site-spaces")).set(s.creator.auth)).body.items[0];
    expect(listed).toEqual(res.body);
    const cleared = await s.t.request
      .patch(path(`/site-spaces/${one.id}`))
      .set(s.admin.auth)
      .send({ condition: null })
      .expect(200);
    expect(cleared.body.condition).toBeUndefined();
    expect(cleared.body.path).toBe("first");
  });

  it("answers 409 on a path of the same container, 400 on a bad path or condition, 404 and 403", async () => {
    const { path, initial } = await siteWithSpaces("Uno", "Dos");
    const [uno, dos] = initial as [SiteSpace, SiteSpace];
    const one = path(`/site-spaces/${dos.id}`);
    await s.t.request.patch(one).set(s.admin.auth).send({ path: uno.path }).expect(409);
    await s.t.request.patch(one).set(s.admin.auth).send({ path: "with space" }).expect(400);
    await s.t.request
      .patch(one)
      .set(s.admin.auth)
      .send({ condition: "visitor.claims.constructor" })
      .expect(400);
    await s.t.request.patch(one).set(s.outsider.auth).send({ path: "x" }).expect(404);
    await s.t.request.patch(path("/site-spaces/missing")).set(s.admin.auth).send({ path: "x" }).expect(404);
    await s.t.request.patch(one).set(s.reader.auth).send({ path: "x" }).expect(403);
    const read = (await s.t.request.get(path("/site-spaces")).set(s.admin.auth)).body.items[1];
    expect(read).toEqual(dos);
  });
});

describe("DELETE /v1/orgs/{organizationId}/sites/{siteId}/site-spaces/{siteSpaceId}", () => {
  it("removes the link, keeps the space, and makes the next one default", async () => {
    const { site, path, initial, links } = await siteWithSpaces("First", "Second", "Third");
    const [first] = initial as [SiteSpace];
    await s.t.request
      .delete(path(`/site-spaces/${first.id}`))
      .set(s.creator.auth)
      .expect(204);
    expect((await links()).map((l) => [l.title, l.default])).toEqual([
      ["Second", true],
      ["Third", false],
    ]);
    await s.t.request.get(`/v1/spaces/${first.space.id}`).set(s.admin.auth).expect(200);
    expect((await s.t.request.get(path()).set(s.admin.auth)).body.siteSpaces).toBe(2);
    await s.t.request
      .delete(path(`/site-spaces/${first.id}`))
      .set(s.admin.auth)
      .expect(404);
    expect(site.siteSpaces).toBe(3);
  });

  it("are removed with their space's transfer to another organization, the default passed on", async () => {
    const { path, initial, links } = await siteWithSpaces("Leaving", "Staying");
    const [leaving] = initial as [SiteSpace];
    // The admin of the site's organization administers the other one too, as a transfer needs.
    await joinOrganization(s.t, s.strangerOrganizationId, s.admin, "admin");
    await s.t.request
      .post(`/v1/spaces/${leaving.space.id}/transfer`)
      .set(s.admin.auth)
      .send({ organization: s.strangerOrganizationId })
      .expect(200);
    expect((await links()).map((l) => [l.title, l.default])).toEqual([["Staying", true]]);
    expect(
      await s.t.db.selectFrom("site_spaces").select("id").where("space_id", "=", leaving.space.id).execute(),
    ).toEqual([]);
    expect((await s.t.request.get(path()).set(s.admin.auth)).body.siteSpaces).toBe(1);
  });

  it("answers 404 and 403, deleting nothing", async () => {
    const { path, initial, links } = await siteWithSpaces("Stay");
    const one = path(`/site-spaces/${initial[0]?.id}`);
    await s.t.request.delete(one).set(s.outsider.auth).expect(404);
    await s.t.request.delete(one).set(s.reader.auth).expect(403);
    await s.t.request.delete(`${one}?x=1`).set(s.admin.auth).expect(400);
    expect((await links()).length).toBe(1);
  });
});

describe("POST /v1/orgs/{organizationId}/sites/{siteId}/site-spaces/{siteSpaceId}/move", () => {
  it("moves among the site spaces of its container", async () => {
    const { path, initial, titlesInOrder } = await siteWithSpaces("Aa", "Bb", "Cc");
    const [a, b, c] = initial as [SiteSpace, SiteSpace, SiteSpace];
    const move = (item: SiteSpace, position?: object) =>
      s.t.request
        .post(path(`/site-spaces/${item.id}/move`))
        .set(s.creator.auth)
        .send(position ? { position } : {});
    const moved = await move(c, { before: { type: "site-space", siteSpace: a.id } }).expect(200);
    expect(moved.body).toMatchObject({ id: c.id, default: false });
    expect(await titlesInOrder()).toEqual(["Cc", "Aa", "Bb"]);
    await move(c, { after: { type: "site-space", siteSpace: a.id } }).expect(200);
    expect(await titlesInOrder()).toEqual(["Aa", "Cc", "Bb"]);
    await move(a).expect(200);
    expect(await titlesInOrder()).toEqual(["Cc", "Bb", "Aa"]);
    await move(a, { before: { type: "site-space", siteSpace: a.id } }).expect(400);
    await move(a, { before: { type: "site-space", siteSpace: "missing" } }).expect(400);

    const [other] = await buildSpaces(s, "Elsewhere");
    const section = (
      await s.t.request.post(path("/sections")).set(s.admin.auth).send({ spaceId: other?.id }).expect(201)
    ).body;
    await move(a, { before: { type: "site-space", siteSpace: section.siteSpaces[0].id } }).expect(400);
    expect(await titlesInOrder()).toEqual(["Cc", "Bb", "Aa", "Elsewhere"]);
    expect(b.id).toBeDefined();
  });

  it("answers 404, 403 and 400", async () => {
    const { path, initial } = await siteWithSpaces("Mm");
    const one = path(`/site-spaces/${initial[0]?.id}/move`);
    await s.t.request.post(one).set(s.outsider.auth).send({}).expect(404);
    await s.t.request.post(path("/site-spaces/missing/move")).set(s.admin.auth).send({}).expect(404);
    await s.t.request.post(one).set(s.reader.auth).send({}).expect(403);
    await s.t.request
      .post(one)
      .set(s.admin.auth)
      .send({ position: { before: { type: "site-section", siteSpace: "x" } } })
      .expect(400);
  });
});

describe("GitBook's site space fields", () => {
  it("adds site spaces as drafts, with their own title, or over a new space; refuses a custom home page", async () => {
    const { path, links } = await siteWithSpaces("Root");
    const [space, other] = await buildSpaces(s, "Space", "Other");
    const created = await s.t.request
      .post(path("/site-spaces"))
      .set(s.creator.auth)
      .send({ spaceId: space?.id, draft: true, title: "Own title", pageId: null, template: {} })
      .expect(201);
    expect(created.body).toMatchObject({ title: "Own title", draft: true, path: "own-title" });
    expect(created.body.space.title).toBe("Space");
    await s.t.request
      .post(path("/site-spaces"))
      .set(s.admin.auth)
      .send({ spaceId: null, title: "Templated", template: { id: "api-docs" } })
      .expect(400);
    const fresh = await s.t.request
      .post(path("/site-spaces"))
      .set(s.admin.auth)
      .send({ spaceId: null, title: "Fresh" })
      .expect(201);
    expect(fresh.body).toMatchObject({ title: "Fresh", draft: false, space: { title: "Fresh" } });
    expect((await links()).map((l) => [l.title, l.draft])).toEqual([
      ["Root", false],
      ["Own title", true],
      ["Fresh", false],
    ]);
    const refused = await s.t.request
      .post(path("/site-spaces"))
      .set(s.admin.auth)
      .send({ spaceId: other?.id, pageId: "page" })
      .expect(400);
    expect(refused.body.error.message).toContain("pageId");
    await s.t.request
      .post(path("/site-spaces"))
      .set(s.admin.auth)
      .send({ spaceId: other?.id, title: "x" })
      .expect(400);
    await s.t.request
      .post(path("/site-spaces"))
      .set(s.admin.auth)
      .send({ spaceId: other?.id, draft: "y" })
      .expect(400);
    await s.t.request.post(path("/site-spaces")).set(s.reader.auth).send({ spaceId: null }).expect(403);
    expect(await links()).toHaveLength(3);
  });

  it("changes the space shown and the draft state; refuses hidden and a custom home page", async () => {
    const { path, links, initial } = await siteWithSpaces("One", "Two");
    const [replacement] = await buildSpaces(s, "Replacement");
    const [first, second] = initial as [SiteSpace, SiteSpace];
    const one = path(`/site-spaces/${first.id}`);
    const res = await s.t.request
      .patch(one)
      .set(s.admin.auth)
      .send({
        spaceId: replacement?.id,
        draft: true,
        hidden: false,
        pageId: null,
        condition: "visitor.claims.a",
      })
      .expect(200);
    expect(res.body).toMatchObject({
      space: { id: replacement?.id },
      title: "Replacement",
      draft: true,
      path: first.path,
    });
    const cleared = await s.t.request
      .patch(one)
      .set(s.admin.auth)
      .send({ condition: "", draft: false })
      .expect(200);
    expect(cleared.body.condition).toBeUndefined();
    expect((await links()).map((l) => [l.space.id, l.draft, l.condition ?? null])).toEqual([
      [replacement?.id, false, null],
      [second.space.id, false, null],
    ]);
    const taken = await s.t.request
      .patch(one)
      .set(s.admin.auth)
      .send({ spaceId: second.space.id })
      .expect(409);
    expect(taken.body.error.message).toContain("already");
    const hidden = await s.t.request
      .patch(one)
      .set(s.admin.auth)
      .send({ hidden: true, draft: true })
      .expect(400);
    expect(hidden.body.error.message).toContain("hidden");
    const page = await s.t.request.patch(one).set(s.admin.auth).send({ pageId: "page" }).expect(400);
    expect(page.body.error.message).toContain("pageId");
    await s.t.request.patch(one).set(s.admin.auth).send({ spaceId: "missing" }).expect(400);
    await s.t.request.patch(one).set(s.reader.auth).send({ draft: true }).expect(403);
    await s.t.request.patch(path("/site-spaces/missing")).set(s.admin.auth).send({ draft: true }).expect(404);
    expect((await links()).map((l) => [l.space.id, l.draft])).toEqual([
      [replacement?.id, false],
      [second.space.id, false],
    ]);
  });
});
