import { sql } from "kysely";
import supertest from "supertest";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createApp } from "../app.js";
import { type Db, openDatabase } from "../db/database.js";
import { testDatabaseKind } from "../testing/database.js";
import {
  type ContentScenario,
  createContentScenario,
  expectError,
  insertPage,
  jsonDocument,
  newSpaceContent,
  textBlock,
} from "./testing.js";

let s: ContentScenario;
beforeAll(async () => {
  s = await createContentScenario();
});
const others: Db[] = [];
afterAll(async () => {
  await Promise.all(others.map((db) => db.destroy()));
  await s.t.close();
});

const MINUTE = 60_000;

describe("POST /v1/spaces/{spaceId}/change-requests", () => {
  it("takes no body, as GitBook's client may send none, and refuses a template it cannot apply", async () => {
    const space = await newSpaceContent(s);
    const url = `/v1/spaces/${space.spaceId}/change-requests`;
    const bare = await s.t.request.post(url).set(s.editor.auth).expect(201);
    expect(bare.body).toMatchObject({ number: 1, subject: "", status: "draft" });
    await s.t.request
      .post(url)
      .set(s.editor.auth)
      .send({ template: { id: "rfc" } })
      .expect(400);
    expect((await space.space()).changeRequests).toBe(1);
  });

  it("creates draft change requests numbered 1, 2, 3 on the space's current content", async () => {
    const space = await newSpaceContent(s);
    const before = await space.space();
    const res = await s.t.request
      .post(`/v1/spaces/${space.spaceId}/change-requests`)
      .set(s.editor.auth)
      .send({ subject: "Fix the intro" })
      .expect(201);
    expect(res.body).toMatchObject({
      object: "change-request",
      number: 1,
      status: "draft",
      subject: "Fix the intro",
      createdBy: { object: "user", id: s.editor.user.id },
      revision: before.revision,
      revisionInitial: before.revision,
      comments: 0,
      outdated: false,
      urls: { app: `http://quire.test/app/spaces/${space.spaceId}/change-requests/1` },
    });
    expect(res.body.revisionMergedAncestor).toBeUndefined();
    expect(res.body.revisionMerged).toBeUndefined();
    expect(res.headers.location).toBe(
      `http://quire.test/v1/spaces/${space.spaceId}/change-requests/${res.body.id}`,
    );
    expect(res.body.urls.location).toBe(res.headers.location);
    expect((await space.createChangeRequest()).number).toBe(2);
    expect((await space.createChangeRequest(s.admin, "")).subject).toBe("");
    expect(await space.space()).toMatchObject({
      changeRequests: 3,
      changeRequestsDraft: 3,
      changeRequestsOpen: 0,
    });
    // Read back by id and by number.
    expect(await space.getChangeRequest(res.body.id)).toEqual(res.body);
    expect(await space.getChangeRequest(1)).toEqual(res.body);
  });

  it("answers 404 (another organization), 403 below edit, 400 and 409 for a deleted space", async () => {
    const space = await newSpaceContent(s);
    const url = `/v1/spaces/${space.spaceId}/change-requests`;
    await s.t.request.post(url).set(s.outsider.auth).send({}).expect(404);
    const other = await s.t.organization();
    await s.t.request.post(url).set(other.admin.auth).send({}).expect(404);
    for (const user of [s.reader, s.commenter])
      expectError((await s.t.request.post(url).set(user.auth).send({}).expect(403)).body, 403);
    expectError(
      (
        await s.t.request
          .post(url)
          .set(s.admin.auth)
          .send({ subject: "x".repeat(101) })
          .expect(400)
      ).body,
      400,
      "subject",
    );
    const deleted = await newSpaceContent(s, { deleted_at: s.t.clock.now().toISOString() });
    expectError(
      (
        await s.t.request
          .post(`/v1/spaces/${deleted.spaceId}/change-requests`)
          .set(s.admin.auth)
          .send({})
          .expect(409)
      ).body,
      409,
      "deleted",
      "space_deleted",
    );
    expect(await space.space()).toMatchObject({ changeRequests: 0 });
    expect((await deleted.space()).changeRequests).toBe(0);
  });

  it("numbers 200 change requests created at once 1..200, also from two server processes", {
    timeout: 120_000,
  }, async () => {
    const space = await newSpaceContent(s);
    const agents = [s.t.request];
    if (testDatabaseKind === "postgres") {
      // A second app with a pool of its own on the same schema, as another server process would be.
      const { rows } = await sql<{ schema: string }>`select current_schema() as schema`.execute(s.t.db);
      const location = new URL(process.env.QUIRE_TEST_DATABASE_URL as string);
      location.searchParams.set("options", `-c search_path=${rows[0]?.schema}`);
      const db = openDatabase({ location: location.href });
      others.push(db);
      agents.push(
        supertest.agent(
          createApp({
            db,
            validateResponses: true,
            publicUrl: "http://quire.test",
            secretKey: s.t.secretKey,
          }),
        ),
      );
    }
    const created = await Promise.all(
      Array.from({ length: 200 }, (_, i) =>
        (agents[i % agents.length] as supertest.Agent)
          .post(`/v1/spaces/${space.spaceId}/change-requests`)
          .set(s.editor.auth)
          .send({})
          .expect(201),
      ),
    );
    const numbers = created.map((res) => res.body.number as number).sort((a, b) => a - b);
    expect(numbers).toEqual(Array.from({ length: 200 }, (_, i) => i + 1));
    expect(await space.space()).toMatchObject({ changeRequests: 200, changeRequestsDraft: 200 });
  });
});

describe("GET /v1/spaces/{spaceId}/change-requests", () => {
  it("lists one status (open by default), newest change first, page by page", async () => {
    const space = await newSpaceContent(s);
    const patch = (number: number, body: object) =>
      s.t.request
        .patch(`/v1/spaces/${space.spaceId}/change-requests/${number}`)
        .set(s.admin.auth)
        .send(body)
        .expect(200);
    const url = `/v1/spaces/${space.spaceId}/change-requests`;
    for (let i = 1; i <= 4; i++) {
      await space.createChangeRequest(s.admin, `CR ${i}`);
      s.t.clock.advance(MINUTE);
    }
    await patch(1, { status: "open" });
    s.t.clock.advance(MINUTE);
    await patch(3, { status: "open" });
    s.t.clock.advance(MINUTE);
    await patch(2, { status: "open" });
    s.t.clock.advance(MINUTE);
    await patch(1, { subject: "CR 1, edited" });

    const open = (await s.t.request.get(url).set(s.reader.auth).expect(200)).body;
    expect(open.count).toBe(3);
    expect(open.items.map((cr: { number: number }) => cr.number)).toEqual([1, 2, 3]);
    const first = (await s.t.request.get(`${url}?limit=2`).set(s.reader.auth).expect(200)).body;
    expect(first.items.map((cr: { number: number }) => cr.number)).toEqual([1, 2]);
    const second = (
      await s.t.request.get(url).query({ limit: 2, page: first.next.page }).set(s.reader.auth).expect(200)
    ).body;
    expect(second.items.map((cr: { number: number }) => cr.number)).toEqual([3]);
    expect(second.next).toBeUndefined();
    const drafts = (await s.t.request.get(`${url}?status=draft`).set(s.reader.auth).expect(200)).body;
    expect(drafts.items.map((cr: { subject: string }) => cr.subject)).toEqual(["CR 4"]);
    expect((await s.t.request.get(`${url}?status=merged`).set(s.reader.auth).expect(200)).body).toEqual({
      count: 0,
      items: [],
    });
  });

  it("filters by contributor: the author, and whoever edited the content", async () => {
    const space = await newSpaceContent(s);
    const byEditor = await space.createChangeRequest(s.editor);
    const byAdmin = await space.createChangeRequest(s.admin);
    const untouched = await space.createChangeRequest(s.admin);
    await space.edit(byAdmin.number, [insertPage("Editor's page")], s.editor);
    const url = `/v1/spaces/${space.spaceId}/change-requests?status=draft`;
    const mine = (
      await s.t.request.get(`${url}&contributor=${s.editor.user.id}`).set(s.reader.auth).expect(200)
    ).body;
    expect(mine.items.map((cr: { id: string }) => cr.id).sort()).toEqual([byEditor.id, byAdmin.id].sort());
    const admins = (
      await s.t.request.get(`${url}&contributor=${s.admin.user.id}`).set(s.reader.auth).expect(200)
    ).body;
    expect(admins.items.map((cr: { id: string }) => cr.id).sort()).toEqual([byAdmin.id, untouched.id].sort());
    expect(
      (await s.t.request.get(`${url}&contributor=nobody`).set(s.reader.auth).expect(200)).body.count,
    ).toBe(0);
  });

  it("answers 404 and 400", async () => {
    const space = await newSpaceContent(s);
    const url = `/v1/spaces/${space.spaceId}/change-requests`;
    await s.t.request.get(url).set(s.outsider.auth).expect(404);
    await s.t.request.get(`/v1/spaces/nope/change-requests`).set(s.admin.auth).expect(404);
    await s.t.request.get(`${url}?status=closed`).set(s.admin.auth).expect(400);
    await s.t.request.get(`${url}?page=garbage`).set(s.admin.auth).expect(400);
  });
});

describe("GET /v1/spaces/{spaceId}/change-requests/{changeRequestId}", () => {
  it("finds it by id or number in its own space only, also in a deleted space", async () => {
    const space = await newSpaceContent(s);
    const cr = await space.createChangeRequest();
    const other = await newSpaceContent(s);
    await s.t.request
      .get(`/v1/spaces/${other.spaceId}/change-requests/${cr.id}`)
      .set(s.admin.auth)
      .expect(404);
    await s.t.request.get(`/v1/spaces/${other.spaceId}/change-requests/1`).set(s.admin.auth).expect(404);
    for (const missing of ["2", "0", "99999999999", "not-an-id"])
      await s.t.request
        .get(`/v1/spaces/${space.spaceId}/change-requests/${missing}`)
        .set(s.admin.auth)
        .expect(404);
    await s.t.request.get(`/v1/spaces/${space.spaceId}/change-requests/1`).set(s.outsider.auth).expect(404);
    expect((await space.getChangeRequest(1, s.reader)).id).toBe(cr.id);
    await s.t.db
      .updateTable("spaces")
      .set({ deleted_at: s.t.clock.now().toISOString() })
      .where("id", "=", space.spaceId)
      .execute();
    expect((await space.getChangeRequest(cr.id)).number).toBe(1);
  });
});

describe("PATCH /v1/spaces/{spaceId}/change-requests/{changeRequestId}", () => {
  /** PATCHes the change request as its editor, expecting `status`. */
  const patcher =
    (spaceId: string, number: number) =>
    (body: object, status = 200) =>
      s.t.request
        .patch(`/v1/spaces/${spaceId}/change-requests/${number}`)
        .set(s.editor.auth)
        .send(body)
        .expect(status);

  it("keeps GitBook's description and links: links keep the ids given back, the others are new", async () => {
    const space = await newSpaceContent(s);
    const cr = await space.createChangeRequest();
    const patch = patcher(space.spaceId, cr.number);
    const description = jsonDocument(textBlock("paragraph", "Fixes the install page."));
    const issue = { ref: { kind: "url", url: "https://issues.example.com/42" }, title: "Issue 42" };
    const first = (await patch({ description, links: [issue] })).body;
    expect(first.description).toEqual(description);
    expect(first.links).toEqual([{ id: expect.any(String), ...issue }]);
    const [kept] = first.links;
    const pr = { ref: { kind: "url", url: "https://git.example.com/pulls/7" } };
    const second = (await patch({ links: [{ ...kept, title: "The issue" }, pr] })).body;
    expect(second.links).toEqual([
      { id: kept.id, ref: issue.ref, title: "The issue" },
      { id: expect.any(String), ...pr },
    ]);
    expect(second.description).toEqual(description);
    expect((await space.getChangeRequest(cr.number)).links).toEqual(second.links);
    const cleared = (await patch({ description: null, links: [] })).body;
    expect(cleared.description).toBeUndefined();
    expect(cleared.links).toEqual([]);

    // An id the change request does not have, too many links, a link that is no URL: 400, nothing changed.
    await patch({ links: [{ id: "nope", ...pr }] }, 400);
    await patch({ links: Array.from({ length: 11 }, () => pr) }, 400);
    await patch({ links: [{ ref: { kind: "page", page: "p" } }] }, 400);
    await patch({ description: { object: "document", nodes: "x" } }, 400);
    expect((await space.getChangeRequest(cr.number)).links).toEqual([]);
  });

  it("moves the status as the table allows, with the space's counters, and changes the subject", async () => {
    const space = await newSpaceContent(s);
    const cr = await space.createChangeRequest();
    const patch = patcher(space.spaceId, cr.number);
    s.t.clock.advance(MINUTE);
    const opened = (await patch({ status: "open", subject: "Ready" })).body;
    expect(opened).toMatchObject({ status: "open", subject: "Ready" });
    expect(opened.updatedAt).not.toBe(cr.updatedAt);
    expect(await space.space()).toMatchObject({
      changeRequests: 1,
      changeRequestsOpen: 1,
      changeRequestsDraft: 0,
    });
    await patch({ status: "archived" });
    expect(await space.space()).toMatchObject({
      changeRequests: 1,
      changeRequestsOpen: 0,
      changeRequestsDraft: 0,
    });
    await patch({ status: "draft" });
    expect(await space.space()).toMatchObject({ changeRequestsOpen: 0, changeRequestsDraft: 1 });
    // A no-op keeps updatedAt.
    const before = await space.getChangeRequest(cr.number);
    s.t.clock.advance(MINUTE);
    expect((await patch({ status: "draft" })).body.updatedAt).toBe(before.updatedAt);
    expect((await patch({})).body).toEqual(before);

    await space.merge(cr.number);
    for (const body of [
      { status: "open" },
      { status: "draft" },
      { status: "archived" },
      { subject: "Too late" },
    ])
      expectError((await patch(body, 409)).body, 409, "merged", "change_request_closed");
    expect(await space.getChangeRequest(cr.number)).toMatchObject({ status: "merged", subject: "Ready" });
    expect(await space.space()).toMatchObject({
      changeRequests: 1,
      changeRequestsOpen: 0,
      changeRequestsDraft: 0,
    });
  });

  it("answers 404, 403 below edit, 400 for merged or an unknown status, 409 for a deleted space", async () => {
    const space = await newSpaceContent(s);
    const cr = await space.createChangeRequest();
    const url = `/v1/spaces/${space.spaceId}/change-requests/${cr.number}`;
    await s.t.request.patch(url).set(s.outsider.auth).send({ status: "open" }).expect(404);
    await s.t.request
      .patch(`/v1/spaces/${space.spaceId}/change-requests/7`)
      .set(s.admin.auth)
      .send({})
      .expect(404);
    await s.t.request.patch(url).set(s.commenter.auth).send({ status: "open" }).expect(403);
    await s.t.request.patch(url).set(s.admin.auth).send({ status: "merged" }).expect(400);
    await s.t.request
      .patch(url)
      .set(s.admin.auth)
      .send({ subject: "x".repeat(101) })
      .expect(400);
    await s.t.db
      .updateTable("spaces")
      .set({ deleted_at: s.t.clock.now().toISOString() })
      .where("id", "=", space.spaceId)
      .execute();
    expectError(
      (await s.t.request.patch(url).set(s.admin.auth).send({ status: "open" }).expect(409)).body,
      409,
      "deleted",
      "space_deleted",
    );
    expect((await space.getChangeRequest(cr.number)).status).toBe("draft");
  });
});
