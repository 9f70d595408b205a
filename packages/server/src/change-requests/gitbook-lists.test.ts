import type { Schema } from "@quire/api-types";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type GitBookAnswer, serveToGitBookClient } from "../testing/gitbook-client.js";
import { type ContentScenario, createContentScenario, insertPage, newSpaceContent } from "./testing.js";

type ListQuery = Record<string, string | string[]>;
type Answer = GitBookAnswer<Schema<"ChangeRequestPage">>;
/** What the tests call of GitBook's client. */
interface GitBookLists {
  spaces: { listChangeRequestsForSpace(space: string, query?: ListQuery): Answer };
  orgs: { listChangeRequestsForOrganization(organization: string, query?: ListQuery): Answer };
}

let s: ContentScenario;
let served: Awaited<ReturnType<typeof serveToGitBookClient>>;
let api: GitBookLists;
beforeAll(async () => {
  s = await createContentScenario();
  served = await serveToGitBookClient(s.t.app);
  api = served.client<GitBookLists>(s.reader.token);
});
afterAll(async () => {
  await served.close();
  await s.t.close();
});

const subjects = (page: { items: Schema<"ChangeRequest">[] }) => page.items.map((cr) => cr.subject);

/** A new space with three open change requests: "Fix" by the editor (edited last), "Add" and "Docs" by the admin. */
async function threeOpen() {
  const space = await newSpaceContent(s);
  const open = async (subject: string, author = s.admin) => {
    const cr = await space.openChangeRequest(author, subject);
    s.t.clock.advance(1000);
    return cr;
  };
  const fix = await open("Fix", s.editor);
  await open("Add");
  await open("Docs");
  await space.edit(fix.number, [insertPage("Fixed", "")], s.editor);
  s.t.clock.advance(1000);
  return { space, fix };
}

describe("GET /spaces/{spaceId}/change-requests with GitBook's filters", () => {
  it("filters by creator and requested reviewer, orders by update or creation, ignores topic", async () => {
    const { space, fix } = await threeOpen();
    const list = async (query: ListQuery = {}) =>
      (await api.spaces.listChangeRequestsForSpace(space.spaceId, query)).data;

    expect(subjects(await list())).toEqual(["Fix", "Docs", "Add"]);
    expect(subjects(await list({ orderBy: "updatedAt" }))).toEqual(["Fix", "Docs", "Add"]);
    expect(subjects(await list({ orderBy: "createdAt" }))).toEqual(["Docs", "Add", "Fix"]);
    expect(subjects(await list({ creator: s.editor.user.id }))).toEqual(["Fix"]);
    expect(subjects(await list({ creator: s.admin.user.id, orderBy: "createdAt" }))).toEqual(["Docs", "Add"]);
    expect(subjects(await list({ creator: "nobody" }))).toEqual([]);
    expect(subjects(await list({ requestedReviewer: s.reviewer.user.id }))).toEqual([]);
    await s.t.request
      .post(`/v1/spaces/${space.spaceId}/change-requests/${fix.number}/requested-reviewers`)
      .set(s.editor.auth)
      .send({ users: [s.reviewer.user.id] })
      .expect(200);
    expect(subjects(await list({ requestedReviewer: s.reviewer.user.id }))).toEqual(["Fix"]);
    // Filters combine with the status and the cursor.
    expect(subjects(await list({ creator: s.editor.user.id, status: "draft" }))).toEqual([]);
    const first = await list({ orderBy: "createdAt", limit: "1" });
    expect(first).toMatchObject({ count: 3, items: [{ subject: "Docs" }] });
    const next = await list({ orderBy: "createdAt", limit: "1", page: first.next?.page ?? "" });
    expect(subjects(next)).toEqual(["Add"]);
    // Quire has no site topics: accepted, and the list is as without it.
    expect(subjects(await list({ topic: "t1" }))).toEqual(["Fix", "Docs", "Add"]);
  });

  it("answers 400 for a bad order, 401 and 404", async () => {
    const space = await newSpaceContent(s);
    const url = `/v1/spaces/${space.spaceId}/change-requests`;
    await s.t.request.get(url).query({ orderBy: "title" }).set(s.reader.auth).expect(400);
    await s.t.request.get(url).query({ orderBy: "" }).set(s.reader.auth).expect(400);
    await s.t.request.get(url).expect(401);
    await s.t.request.get(url).set(s.outsider.auth).expect(404);
  });
});

describe("GET /orgs/{organizationId}/change-requests?site=", () => {
  it("lists only the change requests of the spaces the site publishes", async () => {
    const published = await threeOpen();
    const other = await threeOpen();
    const site = (
      await s.t.request
        .post(`/v1/orgs/${s.organizationId}/sites`)
        .set(s.admin.auth)
        .send({ title: "Docs", spaces: [published.space.spaceId] })
        .expect(201)
    ).body as Schema<"Site">;
    const list = async (query: ListQuery) =>
      (await api.orgs.listChangeRequestsForOrganization(s.organizationId, query)).data;

    const bySite = await list({ site: site.id });
    expect(subjects(bySite)).toEqual(["Fix", "Docs", "Add"]);
    expect(new Set(bySite.items.map((cr) => cr.space))).toEqual(new Set([published.space.spaceId]));
    expect(subjects(await list({ site: site.id, creator: s.editor.user.id }))).toEqual(["Fix"]);
    expect(subjects(await list({ site: site.id, space: other.space.spaceId }))).toEqual([]);
    // An unknown site, or one of another organization, publishes none of this organization's spaces.
    expect(await list({ site: "unknown" })).toEqual({ count: 0, items: [] });
    const elsewhere = await s.t.organization();
    const foreign = (
      await s.t.request
        .post(`/v1/orgs/${elsewhere.organizationId}/sites`)
        .set(elsewhere.admin.auth)
        .send({})
        .expect(201)
    ).body as Schema<"Site">;
    expect(await list({ site: foreign.id })).toEqual({ count: 0, items: [] });
    // Once the space is deleted the site no longer shows it, nor the list its change requests.
    await s.t.request.delete(`/v1/spaces/${published.space.spaceId}`).set(s.admin.auth).expect(204);
    expect(await list({ site: site.id })).toEqual({ count: 0, items: [] });
  });
});

describe("POST …/change-requests/{changeRequestId}/content?compat=", () => {
  it("answers the change request for compat=true and 400 for compat=false, changing nothing", async () => {
    const space = await newSpaceContent(s);
    const cr = await space.createChangeRequest();
    const url = `/v1/spaces/${space.spaceId}/change-requests/${cr.number}/content`;
    const changes = { changes: [{ operation: "insert_page", title: "One", document: { markdown: "x" } }] };
    const refused = await s.t.request.post(url).query({ compat: false }).set(s.admin.auth).send(changes);
    expect(refused.status).toBe(400);
    expect(refused.body.error.message).toContain("compat=false");
    expect((await space.getChangeRequest(cr.id)).revision).toBe(cr.revision);
    await s.t.request.post(url).query({ compat: "maybe" }).set(s.admin.auth).send(changes).expect(400);

    const res = await s.t.request
      .post(url)
      .query({ compat: true })
      .set(s.admin.auth)
      .send(changes)
      .expect(200);
    expect(res.body).toMatchObject({ object: "change-request", id: cr.id });
    expect(res.body.revision).not.toBe(cr.revision);
    expect((await space.getChangeRequest(cr.id)).revision).toBe(res.body.revision);
  });
});
