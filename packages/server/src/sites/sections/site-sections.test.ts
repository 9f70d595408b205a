import type { Schema } from "@quire/api-types";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildSpaces, createSite, createSiteScenario, type SiteScenario, sitePath } from "../testing.js";

let s: SiteScenario;
beforeAll(async () => {
  s = await createSiteScenario();
});
afterAll(() => s.t.close());

type Section = Schema<"SiteSection">;

/** A site with one section per title (each showing a new space of that title). */
async function siteWithSections(...titles: string[]) {
  const site = await createSite(s);
  const path = (rest = "") => sitePath(s.organizationId, site.id, rest);
  const sections: Section[] = [];
  for (const space of await buildSpaces(s, ...titles)) {
    sections.push(
      (await s.t.request.post(path("/sections")).set(s.admin.auth).send({ spaceId: space.id }).expect(201))
        .body,
    );
  }
  const titlesInOrder = async () =>
    (await s.t.request.get(path("/sections")).set(s.admin.auth).expect(200)).body.items.map(
      (x: Section) => x.title,
    );
  return { site, path, sections, titlesInOrder };
}

describe("POST /v1/orgs/{organizationId}/sites/{siteId}/sections", () => {
  it("adds a section showing a space; the first is the default, paths stay unique", async () => {
    const [space] = await buildSpaces(s, "Guides");
    const site = await createSite(s);
    const path = (rest = "") => sitePath(s.organizationId, site.id, rest);
    const first = await s.t.request
      .post(path("/sections"))
      .set(s.creator.auth)
      .send({ spaceId: space?.id })
      .expect(201);
    expect(first.headers.location).toBe(`http://quire.test${path(`/sections/${first.body.id}`)}`);
    expect(first.body).toMatchObject({
      object: "site-section",
      title: "Guides",
      path: "guides",
      default: true,
    });
    expect(first.body.siteSpaces).toEqual([
      expect.objectContaining({ default: true, section: first.body.id, title: "Guides" }),
    ]);
    const second = await s.t.request
      .post(path("/sections"))
      .set(s.admin.auth)
      .send({ spaceId: space?.id, title: "Guides" })
      .expect(201);
    expect(second.body).toMatchObject({ title: "Guides", path: "guides-2", default: false });
    const listed = await s.t.request.get(path("/sections")).set(s.admin.auth).expect(200);
    expect(listed.body.items[1]).toEqual(second.body);
    expect(listed.body.items.map((x: Section) => [x.id, x.path, x.default])).toEqual([
      [first.body.id, "guides", true],
      [second.body.id, "guides-2", false],
    ]);
    expect((await s.t.request.get(path()).set(s.admin.auth)).body.siteSpaces).toBe(2);
  });

  it("gathers a site's root site spaces into a default section named after the site first", async () => {
    const [a, b, c] = await buildSpaces(s, "A1", "B1", "C1");
    const site = await createSite(s, { title: "Company docs", spaces: [a?.id ?? "", b?.id ?? ""] });
    const path = (rest = "") => sitePath(s.organizationId, site.id, rest);
    const added = await s.t.request
      .post(path("/sections"))
      .set(s.admin.auth)
      .send({ spaceId: c?.id, title: "APIs" })
      .expect(201);
    const sections = (await s.t.request.get(path("/sections")).set(s.admin.auth).expect(200)).body.items;
    expect(
      sections.map((x: Section) => [
        x.title,
        x.path,
        x.default,
        x.siteSpaces.map((l) => [l.title, l.default]),
      ]),
    ).toEqual([
      [
        "Company docs",
        "company-docs",
        true,
        [
          ["A1", true],
          ["B1", false],
        ],
      ],
      ["APIs", "apis", false, [["C1", true]]],
    ]);
    expect(added.body.id).toBe(sections[1].id);
  });

  it("answers 404, 403 and 400", async () => {
    const [space] = await buildSpaces(s, "S");
    const [theirSpace] = await Promise.all([
      s.t.request
        .post(`/v1/orgs/${s.strangerOrganizationId}/spaces`)
        .set(s.stranger.auth)
        .send({})
        .expect(201),
    ]);
    const site = await createSite(s);
    const path = sitePath(s.organizationId, site.id, "/sections");
    await s.t.request.post(path).set(s.outsider.auth).send({ spaceId: space?.id }).expect(404);
    await s.t.request
      .post(sitePath(s.organizationId, "missing", "/sections"))
      .set(s.admin.auth)
      .send({ spaceId: space?.id })
      .expect(404);
    await s.t.request.post(path).set(s.reader.auth).send({ spaceId: space?.id }).expect(403);
    await s.t.request.post(path).set(s.admin.auth).send({}).expect(400);
    await s.t.request
      .post(path)
      .set(s.admin.auth)
      .send({ spaceId: space?.id, title: "x".repeat(129) })
      .expect(400);
    await s.t.request.post(path).set(s.admin.auth).send({ spaceId: "missing" }).expect(400);
    await s.t.request.post(path).set(s.admin.auth).send({ spaceId: theirSpace?.body.id }).expect(400);
    expect((await s.t.request.get(path).set(s.admin.auth)).body.count).toBe(0);
  });
});

describe("PATCH /v1/orgs/{organizationId}/sites/{siteId}/sections/{siteSectionId}", () => {
  it("changes title, path, icon, description, condition and the default site space", async () => {
    const { path, sections } = await siteWithSections("First", "Second");
    const [first, second] = sections as [Section, Section];
    const [extra] = await buildSpaces(s, "Extra");
    const link = await s.t.request
      .post(path("/site-spaces"))
      .set(s.admin.auth)
      .send({ spaceId: extra?.id, sectionId: first.id })
      .expect(201);
    const res = await s.t.request
      .patch(path(`/sections/${first.id}`))
      .set(s.creator.auth)
      .send({
        title: "Renamed",
        path: "renamed",
        icon: "book",
        description: "About",
        condition: "visitor.claims.plan == 'pro'",
        defaultSiteSpace: link.body.id,
      })
      .expect(200);
    expect(res.body).toMatchObject({
      title: "Renamed",
      path: "renamed",
      icon: "book",
      description: "About",
      condition: "visitor.claims.plan == 'pro'",
    });
    expect(res.body.siteSpaces.map((l: { id: string; default: boolean }) => [l.id, l.default])).toEqual([
      [first.siteSpaces[0]?.id, false],
      [link.body.id, true],
    ]);
    const listed = (await s.t.request.get(path("/sections")).set(s.creator.auth)).body.items;
    expect(listed[0]).toEqual(res.body);

    const removed = await s.t.request
      .patch(path(`/sections/${first.id}`))
      .set(s.admin.auth)
      .send({ condition: null })
      .expect(200);
    expect(removed.body.condition).toBeUndefined();
    const kept = await s.t.request
      .patch(path(`/sections/${second.id}`))
      .set(s.creator.auth)
      .send({})
      .expect(200);
    expect(kept.body).toEqual(listed[1]);
  });

  it("answers 409 on a path another section has and 400 on a bad path, condition or site space", async () => {
    const { path, sections } = await siteWithSections("One", "Two");
    const [one, two] = sections as [Section, Section];
    await s.t.request
      .patch(path(`/sections/${two.id}`))
      .set(s.admin.auth)
      .send({ path: "one" })
      .expect(409);
    await s.t.request
      .patch(path(`/sections/${two.id}`))
      .set(s.admin.auth)
      .send({ path: "a/b" })
      .expect(400);
    await s.t.request
      .patch(path(`/sections/${two.id}`))
      .set(s.admin.auth)
      .send({ path: "" })
      .expect(400);
    await s.t.request
      .patch(path(`/sections/${two.id}`))
      .set(s.admin.auth)
      .send({ condition: "visitor.claims.a ==" })
      .expect(400);
    await s.t.request
      .patch(path(`/sections/${two.id}`))
      .set(s.admin.auth)
      .send({ condition: "process.exit()" })
      .expect(400);
    await s.t.request
      .patch(path(`/sections/${two.id}`))
      .set(s.admin.auth)
      .send({ condition: "x".repeat(1025) })
      .expect(400);
    await s.t.request
      .patch(path(`/sections/${two.id}`))
      .set(s.admin.auth)
      .send({ defaultSiteSpace: one.siteSpaces[0]?.id })
      .expect(400);
    await s.t.request
      .patch(path(`/sections/${two.id}`))
      .set(s.admin.auth)
      .send({ title: "Z", path: "zz" })
      .expect(400);
    const read = (await s.t.request.get(path("/sections")).set(s.admin.auth)).body.items[1];
    expect(read).toEqual(two);
  });

  it("answers 404 and 403", async () => {
    const { site, path, sections } = await siteWithSections("P");
    const one = path(`/sections/${sections[0]?.id}`);
    await s.t.request.patch(one).set(s.outsider.auth).send({ title: "No" }).expect(404);
    await s.t.request.patch(path("/sections/missing")).set(s.admin.auth).send({ title: "No" }).expect(404);
    await s.t.request
      .patch(sitePath(s.strangerOrganizationId, site.id, `/sections/${sections[0]?.id}`))
      .set(s.stranger.auth)
      .send({ title: "No" })
      .expect(404);
    await s.t.request.patch(one).set(s.reader.auth).send({ title: "No" }).expect(403);
  });
});

describe("DELETE /v1/orgs/{organizationId}/sites/{siteId}/sections/{siteSectionId}", () => {
  it("removes the section and its site spaces, keeps spaces, and passes the default on", async () => {
    const { site, path, sections, titlesInOrder } = await siteWithSections("Main", "Next", "Last");
    const [main] = sections as [Section];
    await s.t.request
      .delete(path(`/sections/${main.id}`))
      .set(s.creator.auth)
      .expect(204);
    const left = (await s.t.request.get(path("/sections")).set(s.admin.auth)).body.items;
    expect(left.map((x: Section) => [x.title, x.default])).toEqual([
      ["Next", true],
      ["Last", false],
    ]);
    expect(await titlesInOrder()).toEqual(["Next", "Last"]);
    expect((await s.t.request.get(path()).set(s.admin.auth)).body.siteSpaces).toBe(2);
    await s.t.request.get(`/v1/spaces/${main.siteSpaces[0]?.space.id}`).set(s.admin.auth).expect(200);
    await s.t.request
      .delete(path(`/sections/${main.id}`))
      .set(s.admin.auth)
      .expect(404);
    expect(site.id).toBeDefined();
  });

  it("answers 404 and 403, deleting nothing", async () => {
    const { path, sections } = await siteWithSections("Q");
    const one = path(`/sections/${sections[0]?.id}`);
    await s.t.request.delete(one).set(s.outsider.auth).expect(404);
    await s.t.request.delete(one).set(s.reader.auth).expect(403);
    await s.t.request.delete(`${one}?x=1`).set(s.admin.auth).expect(400);
    expect((await s.t.request.get(path("/sections")).set(s.admin.auth)).body.count).toBe(1);
  });
});

describe("POST /v1/orgs/{organizationId}/sites/{siteId}/sections/{siteSectionId}/move", () => {
  it("moves before, after, and to the end; within a group among its sections", async () => {
    const { path, sections, titlesInOrder } = await siteWithSections("Alpha", "Beta", "Gamma", "Delta");
    const [a, b, c, d] = sections as [Section, Section, Section, Section];
    const move = (section: Section, position?: object) =>
      s.t.request
        .post(path(`/sections/${section.id}/move`))
        .set(s.creator.auth)
        .send(position ? { position } : {});
    const moved = await move(d, { before: { type: "site-section", siteSection: a.id } }).expect(200);
    expect(moved.body.id).toBe(d.id);
    expect(await titlesInOrder()).toEqual(["Delta", "Alpha", "Beta", "Gamma"]);
    await move(d, { after: { type: "site-section", siteSection: b.id } }).expect(200);
    expect(await titlesInOrder()).toEqual(["Alpha", "Beta", "Delta", "Gamma"]);
    await move(a, {
      before: { type: "site-section", siteSection: c.id },
      after: { type: "site-section", siteSection: d.id },
    }).expect(200);
    expect(await titlesInOrder()).toEqual(["Beta", "Delta", "Alpha", "Gamma"]);
    await move(b).expect(200);
    expect(await titlesInOrder()).toEqual(["Delta", "Alpha", "Gamma", "Beta"]);

    await s.t.request
      .post(path("/section-groups"))
      .set(s.admin.auth)
      .send({ title: "G", sections: [c.id, b.id] })
      .expect(201);
    expect(await titlesInOrder()).toEqual(["Delta", "Alpha", "Gamma", "Beta"]);
    await move(b, { before: { type: "site-section", siteSection: c.id } }).expect(200);
    expect(await titlesInOrder()).toEqual(["Delta", "Alpha", "Beta", "Gamma"]);
    // A section moves among the items of its own level only.
    await move(b, { before: { type: "site-section", siteSection: d.id } }).expect(400);
    await move(d, { before: { type: "site-section", siteSection: c.id } }).expect(400);
    await move(d, { before: { type: "site-section", siteSection: d.id } }).expect(400);
    await move(d, { before: { type: "site-section", siteSection: "missing" } }).expect(400);
    expect(await titlesInOrder()).toEqual(["Delta", "Alpha", "Beta", "Gamma"]);
  });

  it("answers 404 and 403", async () => {
    const { path, sections } = await siteWithSections("M");
    const one = path(`/sections/${sections[0]?.id}/move`);
    await s.t.request.post(one).set(s.outsider.auth).send({}).expect(404);
    await s.t.request.post(path("/sections/missing/move")).set(s.admin.auth).send({}).expect(404);
    await s.t.request.post(one).set(s.reader.auth).send({}).expect(403);
    await s.t.request
      .post(one)
      .set(s.admin.auth)
      .send({ position: { before: { type: "site-space", siteSection: "x" } } })
      .expect(400);
  });
});

describe("section groups", () => {
  const groupTitles = async (path: (rest?: string) => string) =>
    (await s.t.request.get(path("/section-groups")).set(s.admin.auth).expect(200)).body.items.map(
      (g: Schema<"SiteSectionGroup">) => [g.title, g.sections.map((x) => x.title)],
    );

  it("creates a group at the end of the top level, taking the sections listed, and lists groups in order", async () => {
    const { path, sections, titlesInOrder } = await siteWithSections("Alpha", "Beta", "Gamma");
    const [a, b, c] = sections as [Section, Section, Section];
    const group = await s.t.request
      .post(path("/section-groups"))
      .set(s.creator.auth)
      .send({ title: "Group", icon: "folder", sections: [c.id, a.id, c.id] })
      .expect(201);
    expect(group.headers.location).toBe(`http://quire.test${path(`/section-groups/${group.body.id}`)}`);
    expect(group.body).toMatchObject({ object: "site-section-group", title: "Group", icon: "folder" });
    expect(group.body.sections.map((x: Section) => [x.title, x.sectionGroup])).toEqual([
      ["Gamma", group.body.id],
      ["Alpha", group.body.id],
    ]);
    expect(await titlesInOrder()).toEqual(["Beta", "Gamma", "Alpha"]);
    const empty = await s.t.request
      .post(path("/section-groups"))
      .set(s.admin.auth)
      .send({ title: "E" })
      .expect(201);
    expect(empty.body.sections).toEqual([]);
    expect(await groupTitles(path)).toEqual([
      ["Group", ["Gamma", "Alpha"]],
      ["E", []],
    ]);
    const listed = await s.t.request.get(path("/section-groups?limit=1")).set(s.creator.auth).expect(200);
    expect(listed.body.items).toEqual([group.body]);
    expect(listed.body.count).toBe(2);
    // A grouped section cannot join another group at creation.
    await s.t.request
      .post(path("/section-groups"))
      .set(s.admin.auth)
      .send({ title: "X", sections: [a.id] })
      .expect(400);
    await s.t.request
      .post(path("/section-groups"))
      .set(s.admin.auth)
      .send({ title: "X", sections: ["missing"] })
      .expect(400);
    expect((await s.t.request.get(path("/section-groups")).set(s.admin.auth)).body.count).toBe(2);
    expect(b.id).toBeDefined();
  });

  it("renames, adds and removes sections, moves, and deletes a group keeping its sections in place", async () => {
    const { path, sections, titlesInOrder } = await siteWithSections("Alpha", "Beta", "Gamma", "Delta");
    const [a, b, c, d] = sections as [Section, Section, Section, Section];
    const group = (
      await s.t.request
        .post(path("/section-groups"))
        .set(s.admin.auth)
        .send({ title: "G", sections: [b.id] })
        .expect(201)
    ).body;
    const groupPath = (rest = "") => path(`/section-groups/${group.id}${rest}`);
    expect(await titlesInOrder()).toEqual(["Alpha", "Gamma", "Delta", "Beta"]);

    const renamed = await s.t.request
      .patch(groupPath())
      .set(s.creator.auth)
      .send({ title: "Guides", icon: "map" })
      .expect(200);
    expect(renamed.body).toMatchObject({ title: "Guides", icon: "map" });

    const added = await s.t.request
      .post(groupPath("/sections"))
      .set(s.creator.auth)
      .send({ sectionId: d.id })
      .expect(201);
    expect(added.body.sections.map((x: Section) => x.title)).toEqual(["Beta", "Delta"]);
    await s.t.request.post(groupPath("/sections")).set(s.admin.auth).send({ sectionId: d.id }).expect(409);
    await s.t.request
      .post(groupPath("/sections"))
      .set(s.admin.auth)
      .send({ sectionId: "missing" })
      .expect(400);
    expect(await titlesInOrder()).toEqual(["Alpha", "Gamma", "Beta", "Delta"]);

    await s.t.request
      .post(groupPath("/move"))
      .set(s.creator.auth)
      .send({ position: { before: { type: "site-section", id: a.id } } })
      .expect(200);
    expect(await titlesInOrder()).toEqual(["Beta", "Delta", "Alpha", "Gamma"]);
    await s.t.request.post(groupPath("/move")).set(s.admin.auth).send({}).expect(200);
    expect(await titlesInOrder()).toEqual(["Alpha", "Gamma", "Beta", "Delta"]);
    await s.t.request
      .post(groupPath("/move"))
      .set(s.admin.auth)
      .send({ position: { after: { type: "site-section", id: b.id } } })
      .expect(400);
    await s.t.request
      .post(groupPath("/move"))
      .set(s.admin.auth)
      .send({ position: { after: { type: "site-section-group", id: group.id } } })
      .expect(400);

    // Taken out of the group, a section comes right after it.
    await s.t.request
      .post(groupPath("/move"))
      .set(s.admin.auth)
      .send({ position: { after: { type: "site-section", id: a.id } } })
      .expect(200);
    expect(await titlesInOrder()).toEqual(["Alpha", "Beta", "Delta", "Gamma"]);
    await s.t.request
      .delete(groupPath(`/sections/${b.id}`))
      .set(s.creator.auth)
      .expect(204);
    expect(await titlesInOrder()).toEqual(["Alpha", "Delta", "Beta", "Gamma"]);
    await s.t.request
      .delete(groupPath(`/sections/${b.id}`))
      .set(s.admin.auth)
      .expect(404);
    await s.t.request
      .delete(groupPath(`/sections/${c.id}`))
      .set(s.admin.auth)
      .expect(404);
    const sectionB = (await s.t.request.get(path("/sections")).set(s.admin.auth)).body.items[2];
    expect(sectionB.sectionGroup).toBeUndefined();

    await s.t.request.post(groupPath("/sections")).set(s.admin.auth).send({ sectionId: c.id }).expect(201);
    expect(await titlesInOrder()).toEqual(["Alpha", "Delta", "Gamma", "Beta"]);
    await s.t.request.delete(groupPath()).set(s.creator.auth).expect(204);
    expect(await titlesInOrder()).toEqual(["Alpha", "Delta", "Gamma", "Beta"]);
    expect(await groupTitles(path)).toEqual([]);
    const after = (await s.t.request.get(path("/sections")).set(s.admin.auth)).body.items;
    expect(after.every((x: Section) => x.sectionGroup === undefined)).toBe(true);
    await s.t.request.delete(groupPath()).set(s.admin.auth).expect(404);
  });

  it("answers 404, 403 and 400 on every group operation", async () => {
    const { path, sections } = await siteWithSections("Alpha", "Beta");
    const [a, b] = sections as [Section, Section];
    const group = (
      await s.t.request
        .post(path("/section-groups"))
        .set(s.admin.auth)
        .send({ title: "G", sections: [a.id] })
        .expect(201)
    ).body;
    const groupPath = (rest = "") => path(`/section-groups/${group.id}${rest}`);
    const calls = [
      () => s.t.request.get(path("/section-groups")),
      () => s.t.request.post(path("/section-groups")).send({ title: "N" }),
      () => s.t.request.patch(groupPath()).send({ title: "N" }),
      () => s.t.request.delete(groupPath()),
      () => s.t.request.post(groupPath("/sections")).send({ sectionId: b.id }),
      () => s.t.request.delete(groupPath(`/sections/${a.id}`)),
      () => s.t.request.post(groupPath("/move")).send({}),
    ];
    for (const call of calls) {
      await call().set(s.outsider.auth).expect(404);
      await call().set(s.guest.auth).expect(403);
    }
    for (const call of calls.slice(1)) await call().set(s.reader.auth).expect(403);
    await s.t.request
      .patch(path("/section-groups/missing"))
      .set(s.admin.auth)
      .send({ title: "N" })
      .expect(404);
    await s.t.request
      .post(path("/section-groups/missing/sections"))
      .set(s.admin.auth)
      .send({ sectionId: b.id })
      .expect(404);
    await s.t.request.post(path("/section-groups")).set(s.admin.auth).send({}).expect(400);
    await s.t.request.post(path("/section-groups")).set(s.admin.auth).send({ title: "" }).expect(400);
    await s.t.request
      .patch(groupPath())
      .set(s.admin.auth)
      .send({ title: "t".repeat(101) })
      .expect(400);
    await s.t.request.post(groupPath("/sections")).set(s.admin.auth).send({}).expect(400);
    await s.t.request
      .post(groupPath("/move"))
      .set(s.admin.auth)
      .send({ position: { before: { type: "group", id: "x" } } })
      .expect(400);
    const read = (await s.t.request.get(path("/section-groups")).set(s.admin.auth)).body.items;
    expect(read).toEqual([expect.objectContaining({ id: group.id, title: "G" })]);
    expect(read[0].sections.map((x: Section) => x.id)).toEqual([a.id]);
  });
});

describe("GitBook's section and group fields", () => {
  it("creates sections with a 128-character or null title, an icon, as drafts, in a group, or over a new space", async () => {
    const { path } = await siteWithSections("First");
    const [space, other, third] = await buildSpaces(s, "Space title", "Other", "Third");
    const group = (
      await s.t.request.post(path("/section-groups")).set(s.admin.auth).send({ title: "G" }).expect(201)
    ).body;
    const long = "t".repeat(128);
    const created = await s.t.request
      .post(path("/sections"))
      .set(s.creator.auth)
      .send({ spaceId: space?.id, title: long, icon: "gear", draft: true, siteSectionGroupId: group.id })
      .expect(201);
    expect(created.body).toMatchObject({ title: long, icon: "gear", draft: true, sectionGroup: group.id });
    expect(created.body.siteSpaces[0].draft).toBe(false);
    const untitled = await s.t.request
      .post(path("/sections"))
      .set(s.admin.auth)
      .send({ spaceId: other?.id, title: null, icon: null, template: { anything: 1 } })
      .expect(201);
    expect(untitled.body).toMatchObject({ title: "Other", draft: false });
    expect(untitled.body.icon).toBeUndefined();
    expect(untitled.body.sectionGroup).toBeUndefined();
    // A template would fill the new space: Quire has none, and says so rather than make it empty.
    await s.t.request
      .post(path("/sections"))
      .set(s.admin.auth)
      .send({ spaceId: null, title: "Templated", template: { id: "api-docs" } })
      .expect(400);
    const fresh = await s.t.request
      .post(path("/sections"))
      .set(s.admin.auth)
      .send({ spaceId: null, title: "Brand new" })
      .expect(201);
    expect(fresh.body.title).toBe("Brand new");
    expect(fresh.body.siteSpaces[0].space).toMatchObject({ title: "Brand new" });
    await s.t.request.get(`/v1/spaces/${fresh.body.siteSpaces[0].space.id}`).set(s.admin.auth).expect(200);

    const listed = (await s.t.request.get(path("/sections")).set(s.admin.auth).expect(200)).body.items;
    expect(listed.map((x: Section) => [x.title, x.draft, x.sectionGroup ?? null])).toEqual([
      ["First", false, null],
      [long, true, group.id],
      ["Other", false, null],
      ["Brand new", false, null],
    ]);
    const groups = (await s.t.request.get(path("/section-groups")).set(s.admin.auth).expect(200)).body.items;
    expect(groups[0].children.map((x: Section) => x.id)).toEqual([created.body.id]);
    expect(groups[0].children).toEqual(groups[0].sections);

    const refused = async (body: object, field: string) => {
      const res = await s.t.request.post(path("/sections")).set(s.admin.auth).send(body).expect(400);
      expect(res.body.error.message).toContain(field);
    };
    await refused({ spaceId: third?.id, pageId: "page" }, "pageId");
    await refused({ spaceId: third?.id, siteSectionGroupId: "missing" }, "missing");
    await s.t.request
      .post(path("/sections"))
      .set(s.admin.auth)
      .send({ spaceId: third?.id, title: "x" })
      .expect(400);
    await s.t.request
      .post(path("/sections"))
      .set(s.admin.auth)
      .send({ spaceId: third?.id, icon: "i".repeat(51) })
      .expect(400);
    await s.t.request
      .post(path("/sections"))
      .set(s.admin.auth)
      .send({ spaceId: third?.id, draft: "yes" })
      .expect(400);
    await s.t.request.post(path("/sections")).set(s.reader.auth).send({ spaceId: null }).expect(403);
    expect((await s.t.request.get(path("/sections")).set(s.admin.auth)).body.count).toBe(4);
  });

  it("clears icon, description and condition with null or empty, makes drafts live, and moves sections between groups", async () => {
    const { path, sections } = await siteWithSections("Alpha", "Beta");
    const [a] = sections as [Section, Section];
    const one = path(`/sections/${a.id}`);
    await s.t.request
      .patch(one)
      .set(s.admin.auth)
      .send({ icon: "gear", description: "About", condition: "visitor.claims.pro", draft: true })
      .expect(200);
    const group = (
      await s.t.request.post(path("/section-groups")).set(s.admin.auth).send({ title: "G" }).expect(201)
    ).body;
    const cleared = await s.t.request
      .patch(one)
      .set(s.admin.auth)
      .send({
        icon: null,
        description: null,
        condition: "",
        draft: false,
        siteSectionGroupId: group.id,
        localizedTitle: {},
      })
      .expect(200);
    expect(cleared.body).toMatchObject({ draft: false, sectionGroup: group.id });
    for (const field of ["icon", "description", "condition"]) expect(cleared.body[field]).toBeUndefined();
    const read = (await s.t.request.get(path("/sections")).set(s.admin.auth)).body.items;
    expect(read.map((x: Section) => [x.title, x.sectionGroup ?? null])).toEqual([
      ["Beta", null],
      ["Alpha", group.id],
    ]);
    const back = await s.t.request
      .patch(one)
      .set(s.admin.auth)
      .send({ siteSectionGroupId: null })
      .expect(200);
    expect(back.body.sectionGroup).toBeUndefined();
    expect(
      (await s.t.request.get(path("/sections")).set(s.admin.auth)).body.items.map((x: Section) => x.title),
    ).toEqual(["Beta", "Alpha"]);

    const refused = async (body: object, field: string) => {
      const res = await s.t.request.patch(one).set(s.admin.auth).send(body).expect(400);
      expect(res.body.error.message).toContain(field);
    };
    await refused({ localizedTitle: { fr: "Alpha" }, title: "Changed" }, "localizedTitle");
    await refused({ localizedDescription: { fr: "À propos" } }, "localizedDescription");
    await refused({ siteSectionGroupId: "missing", title: "Changed" }, "missing");
    await s.t.request.patch(one).set(s.admin.auth).send({ draft: 1 }).expect(400);
    await s.t.request
      .patch(one)
      .set(s.admin.auth)
      .send({ description: "d".repeat(257) })
      .expect(400);
    await s.t.request.patch(one).set(s.reader.auth).send({ draft: true }).expect(403);
    await s.t.request.patch(path("/sections/missing")).set(s.admin.auth).send({ draft: true }).expect(404);
    const after = (await s.t.request.get(path("/sections")).set(s.admin.auth)).body.items[1];
    expect(after).toMatchObject({ title: "Alpha", draft: false });
  });

  it("creates and updates groups as drafts, clears their icon, and refuses nesting", async () => {
    const { path, sections } = await siteWithSections("Alpha");
    const [a] = sections as [Section];
    const created = await s.t.request
      .post(path("/section-groups"))
      .set(s.creator.auth)
      .send({ title: "G", icon: null, draft: true, sections: [a.id] })
      .expect(201);
    expect(created.body).toMatchObject({ title: "G", draft: true });
    expect(created.body.icon).toBeUndefined();
    expect(created.body.children.map((x: Section) => x.id)).toEqual([a.id]);
    const groupPath = path(`/section-groups/${created.body.id}`);
    await s.t.request.patch(groupPath).set(s.admin.auth).send({ icon: "book" }).expect(200);
    const updated = await s.t.request
      .patch(groupPath)
      .set(s.admin.auth)
      .send({ icon: null, draft: false, parentSectionGroupId: null, localizedTitle: {} })
      .expect(200);
    expect(updated.body).toMatchObject({ draft: false });
    expect(updated.body.icon).toBeUndefined();
    const read = (await s.t.request.get(path("/section-groups")).set(s.admin.auth)).body.items[0];
    expect(read).toMatchObject({ id: created.body.id, draft: false });

    const parentRefused = await s.t.request
      .post(path("/section-groups"))
      .set(s.admin.auth)
      .send({ title: "Nested", parent: created.body.id })
      .expect(400);
    expect(parentRefused.body.error.message).toContain("parent");
    const moveRefused = await s.t.request
      .patch(groupPath)
      .set(s.admin.auth)
      .send({ parentSectionGroupId: created.body.id, draft: true })
      .expect(400);
    expect(moveRefused.body.error.message).toContain("parentSectionGroupId");
    await s.t.request
      .patch(groupPath)
      .set(s.admin.auth)
      .send({ localizedTitle: { de: "Gruppe" } })
      .expect(400);
    await s.t.request
      .post(path("/section-groups"))
      .set(s.admin.auth)
      .send({ title: "D", draft: "no" })
      .expect(400);
    await s.t.request.patch(groupPath).set(s.reader.auth).send({ draft: true }).expect(403);
    const groups = (await s.t.request.get(path("/section-groups")).set(s.admin.auth)).body.items;
    expect(groups.map((g: Schema<"SiteSectionGroup">) => [g.title, g.draft])).toEqual([["G", false]]);
  });
});
