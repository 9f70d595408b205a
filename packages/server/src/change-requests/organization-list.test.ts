import type { Schema } from "@quire/api-types";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type ContentScenario, createContentScenario, insertPage, newSpaceContent } from "./testing.js";

let s: ContentScenario;
beforeAll(async () => {
  s = await createContentScenario();
});
afterAll(() => s.t.close());

const list = async (query = "", status = 200) =>
  (
    await s.t.request
      .get(`/v1/orgs/${s.organizationId}/change-requests${query}`)
      .set(s.reader.auth)
      .expect(status)
  ).body;
const subjects = (page: { items: Schema<"ChangeRequest">[] }) => page.items.map((cr) => cr.subject);

describe("GET /orgs/{organizationId}/change-requests", () => {
  it("lists the change requests of every readable space, filtered and ordered as asked", async () => {
    const first = await newSpaceContent(s);
    const second = await newSpaceContent(s);
    const gone = await newSpaceContent(s);
    const open = async (space: typeof first, subject: string, author = s.admin) => {
      const cr = await space.openChangeRequest(author, subject);
      s.t.clock.advance(1000);
      return cr;
    };
    const fix = await open(first, "Fix", s.editor);
    await open(second, "Add");
    await first.edit(fix.number, [insertPage("Fixed", "")], s.editor);
    s.t.clock.advance(1000);
    await second.createChangeRequest(s.admin, "Draft");
    await open(gone, "Lost");
    await s.t.request.delete(`/v1/spaces/${gone.spaceId}`).set(s.admin.auth).expect(204);

    // Open ones by default, most recently changed first (the edit moved "Fix" after "Add" was opened).
    expect(subjects(await list())).toEqual(["Fix", "Add"]);
    expect(subjects(await list("?orderBy=createdAt"))).toEqual(["Add", "Fix"]);
    expect(subjects(await list("?status=draft"))).toEqual(["Draft"]);
    expect(subjects(await list("?status=draft&status=open&orderBy=createdAt"))).toEqual([
      "Draft",
      "Add",
      "Fix",
    ]);
    expect(subjects(await list(`?creator=${s.editor.user.id}`))).toEqual(["Fix"]);
    expect(subjects(await list(`?contributor=${s.editor.user.id}`))).toEqual(["Fix"]);
    expect(subjects(await list(`?space=${second.spaceId}&status=open&status=draft`))).toEqual([
      "Draft",
      "Add",
    ]);
    expect(subjects(await list(`?requestedReviewer=${s.reviewer.user.id}`))).toEqual([]);
    await s.t.request
      .post(`/v1/spaces/${first.spaceId}/change-requests/${fix.number}/requested-reviewers`)
      .set(s.editor.auth)
      .send({ users: [s.reviewer.user.id] })
      .expect(200);
    expect(subjects(await list(`?requestedReviewer=${s.reviewer.user.id}`))).toEqual(["Fix"]);

    const one = await list("?limit=1");
    expect(one).toMatchObject({ count: 2, items: [{ subject: "Fix", space: first.spaceId }] });
    expect(subjects(await list(`?limit=1&page=${one.next.page}`))).toEqual(["Add"]);
    // GitBook's parameters for what Quire has not are accepted.
    expect(subjects(await list("?topic=t1&styleguideRun=r1&finding=none"))).toEqual(["Fix", "Add"]);
  });

  it("answers 401, 404 for an organization the caller is not in, 400 for bad parameters", async () => {
    await s.t.request.get(`/v1/orgs/${s.organizationId}/change-requests`).expect(401);
    await s.t.request.get(`/v1/orgs/${s.organizationId}/change-requests`).set(s.outsider.auth).expect(404);
    await list("?status=closed", 400);
    await list("?orderBy=title", 400);
    await list("?finding=some", 400);
  });
});
