import type { Schema } from "@quire/api-types";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  type ContentScenario,
  createContentScenario,
  insertPage,
  jsonDocument,
  newSpaceContent,
  textBlock,
} from "../change-requests/testing.js";
import type { TestUser } from "../testing/harness.js";

let s: ContentScenario;
beforeAll(async () => {
  s = await createContentScenario();
});
afterAll(() => s.t.close());

/** A space with a change request the editor wrote, and requests on it as `user`. */
async function changeRequest() {
  const space = await newSpaceContent(s);
  await space.seed([insertPage("Guide", "Read me.")]);
  const cr = await space.createChangeRequest(s.editor, "Add a page");
  await space.edit(cr.number, [insertPage("New", "Hello.")], s.editor);
  const base = `/v1/spaces/${space.spaceId}/change-requests/${cr.number}`;
  const as = (user: TestUser) => ({
    get: (path: string, status = 200) => s.t.request.get(`${base}${path}`).set(user.auth).expect(status),
    post: (path: string, body: object, status: number) =>
      s.t.request.post(`${base}${path}`).set(user.auth).send(body).expect(status),
    delete: (path: string, status: number) =>
      s.t.request.delete(`${base}${path}`).set(user.auth).expect(status),
  });
  return { space, cr, base, as };
}

type Review = Schema<"ChangeRequestReview">;
const statuses = (items: Review[]) =>
  items.map((review) => `${review.status}${review.outdated ? " (outdated)" : ""}`);

describe("reviews of a change request", () => {
  it("asked for, submitted, listed; outdated by a later edit and by the reviewer's next review", async () => {
    const { space, cr, as } = await changeRequest();
    const asked = await as(s.editor).post(
      "/requested-reviewers",
      { users: [s.reviewer.user.id, s.admin.user.id] },
      200,
    );
    expect(asked.body.users).toMatchObject([
      {
        object: "change-request-requested-reviewer",
        kind: "user",
        user: { id: s.reviewer.user.id },
        requestedBy: { id: s.editor.user.id },
        revision: (await space.getChangeRequest(cr.number)).revision,
      },
      { user: { id: s.admin.user.id } },
    ]);
    const requested = (await as(s.reader).get("/requested-reviewers")).body;
    expect(requested.count).toBe(2);

    const submitted = await as(s.reviewer).post("/reviews", { status: "approved" }, 201);
    const review: Review = submitted.body;
    expect(review).toMatchObject({
      object: "change-request-review",
      status: "approved",
      outdated: false,
      reviewer: { id: s.reviewer.user.id },
      requestedBy: { id: s.editor.user.id },
      revision: (await space.getChangeRequest(cr.number)).revision,
    });
    expect(submitted.headers.location).toBe(review.urls.location);
    // The review answered the reviewer's request: only the admin's is left.
    expect((await as(s.reader).get("/requested-reviewers")).body.items).toMatchObject([
      { user: { id: s.admin.user.id } },
    ]);
    expect((await as(s.reader).get(`/reviews/${review.id}`)).body).toEqual(review);

    // A later edit outdates the review.
    await space.edit(cr.number, [insertPage("More", "")], s.editor);
    expect((await as(s.reader).get(`/reviews/${review.id}`)).body.outdated).toBe(true);

    // The reviewer's next review stands; their first one stays outdated, even if the content went back.
    const second: Review = (await as(s.reviewer).post("/reviews", { status: "changes-requested" }, 201)).body;
    expect(second).toMatchObject({ status: "changes-requested", outdated: false });
    expect(second.requestedBy).toBeUndefined();
    const list = (await as(s.reader).get("/reviews")).body;
    expect(list.count).toBe(2);
    expect(statuses(list.items)).toEqual(["changes-requested", "approved (outdated)"]);
    expect(statuses((await as(s.reader).get("/reviews?outdated=true")).body.items)).toEqual([
      "approved (outdated)",
    ]);
    expect(statuses((await as(s.reader).get("/reviews?outdated=false")).body.items)).toEqual([
      "changes-requested",
    ]);
    const first = (await as(s.reader).get("/reviews?limit=1")).body;
    expect(first.items.map((r: Review) => r.id)).toEqual([second.id]);
    const next = (await as(s.reader).get(`/reviews?limit=1&page=${first.next.page}`)).body;
    expect(next.items.map((r: Review) => r.id)).toEqual([review.id]);

    // Withdrawing the admin's request; asking again renews one.
    await as(s.editor).delete(`/requested-reviewers/${s.admin.user.id}`, 204);
    expect((await as(s.reader).get("/requested-reviewers")).body).toEqual({ count: 0, items: [] });
    await as(s.editor).delete(`/requested-reviewers/${s.admin.user.id}`, 404);
    await as(s.editor).post("/requested-reviewers", { users: [s.admin.user.id, s.admin.user.id] }, 200);
    await as(s.admin).post("/requested-reviewers", { users: [s.admin.user.id] }, 200);
    expect((await as(s.reader).get("/requested-reviewers")).body.items).toMatchObject([
      { user: { id: s.admin.user.id }, requestedBy: { id: s.admin.user.id } },
    ]);
  });

  it("saves the subject and description a request for reviewers carries, with the request", async () => {
    const { space, cr, as } = await changeRequest();
    const description = jsonDocument(textBlock("paragraph", "Please check the new page."));
    await as(s.editor).post(
      "/requested-reviewers",
      { users: [s.reviewer.user.id], subject: "Ready for review", description },
      200,
    );
    const read = await space.getChangeRequest(cr.number);
    expect(read).toMatchObject({ subject: "Ready for review", description });
    expect((await as(s.reader).get("/requested-reviewers")).body.count).toBe(1);

    // A user who may not review refuses the whole request: the subject stays as it was.
    await as(s.editor).post("/requested-reviewers", { users: [s.reader.user.id], subject: "Not saved" }, 400);
    expect((await space.getChangeRequest(cr.number)).subject).toBe("Ready for review");
    expect((await as(s.reader).get("/requested-reviewers")).body.count).toBe(1);
  });

  it("answers 403 to who may not review or ask, and to the author reviewing their own change request", async () => {
    const { as } = await changeRequest();
    await as(s.reader).post("/reviews", { status: "approved" }, 403);
    await as(s.commenter).post("/reviews", { status: "approved" }, 403);
    await as(s.editor).post("/reviews", { status: "approved" }, 403);
    const { space } = await changeRequest();
    const mine = await space.createChangeRequest(s.reviewer);
    const own = await s.t.request
      .post(`/v1/spaces/${space.spaceId}/change-requests/${mine.number}/reviews`)
      .set(s.reviewer.auth)
      .send({ status: "approved" })
      .expect(403);
    expect(own.body.error.message).toMatch(/your own change request/);
    await as(s.reader).post("/requested-reviewers", { users: [s.admin.user.id] }, 403);
    await as(s.commenter).post("/requested-reviewers", { users: [s.admin.user.id] }, 403);
    await as(s.reader).delete(`/requested-reviewers/${s.admin.user.id}`, 403);
    expect((await as(s.reader).get("/reviews")).body.count).toBe(0);
  });

  it("posts the comment of a review as a thread of the change request, in GitBook's document form or Markdown", async () => {
    const { as } = await changeRequest();
    const document = jsonDocument(textBlock("paragraph", "Looks good"));
    const approved: Review = (
      await as(s.reviewer).post("/reviews", { status: "approved", comment: document }, 201)
    ).body;
    expect(approved.comment).toMatchObject({
      postedBy: { id: s.reviewer.user.id },
      body: { markdown: "Looks good\n" },
      status: "open",
    });
    // The comment is the change request's, like any other: listed, read back, and shown with the review.
    const threads = (await as(s.reader).get("/comments")).body;
    expect(threads.items.map((c: { id: string }) => c.id)).toEqual([approved.comment?.id]);
    expect((await as(s.reviewer).get(`/reviews/${approved.id}`)).body).toEqual(approved);
    // A comment shows what its reader may do with it: the reviewer edits their own, a reader nothing.
    expect(approved.comment?.permissions).toMatchObject({ edit: true, delete: true });
    expect((await as(s.reader).get(`/reviews/${approved.id}`)).body.comment.permissions).toEqual({
      view: true,
      edit: false,
      reply: false,
      delete: false,
    });
    const second: Review = (
      await as(s.reviewer).post(
        "/reviews",
        { status: "changes-requested", comment: { markdown: "One more thing." } },
        201,
      )
    ).body;
    expect(second.comment?.body).toMatchObject({ markdown: "One more thing." });
    expect((await as(s.reader).get("/reviews")).body.items.map((r: Review) => r.comment?.id)).toEqual([
      second.comment?.id,
      approved.comment?.id,
    ]);
    // Deleting the comment leaves the review, without it.
    await s.t.request
      .delete(new URL(second.comment?.urls.location ?? "").pathname)
      .set(s.reviewer.auth)
      .expect(204);
    const left = (await as(s.reader).get(`/reviews/${second.id}`)).body;
    expect(left).toMatchObject({ id: second.id, status: "changes-requested" });
    expect(left.comment).toBeUndefined();

    // GitBook's client sends its document in an envelope, and an empty document for no comment.
    const enveloped: Review = (
      await as(s.reviewer).post(
        "/reviews",
        { status: "approved", comment: { document: jsonDocument(textBlock("paragraph", "Fine now")) } },
        201,
      )
    ).body;
    expect(enveloped.comment?.body).toMatchObject({ markdown: "Fine now\n" });
    const bare: Review = (await as(s.reviewer).post("/reviews", { status: "approved", comment: {} }, 201))
      .body;
    expect(bare.comment).toBeUndefined();
    expect((await as(s.reader).get("/comments")).body.count).toBe(2);
  });

  it("answers 400 for a bad status, a bad or empty comment, no user, or users who cannot review", async () => {
    const { as } = await changeRequest();
    await as(s.reviewer).post("/reviews", { status: "maybe" }, 400);
    await as(s.reviewer).post("/reviews", {}, 400);
    await as(s.reviewer).post("/reviews", { status: "approved", comment: "LGTM" }, 400);
    await as(s.reviewer).post("/reviews", { status: "approved", comment: { markdown: "  " } }, 400);
    await as(s.reviewer).post(
      "/reviews",
      { status: "approved", comment: { object: "document", nodes: 3 } },
      400,
    );
    // Nothing was written: no review, no comment.
    expect((await as(s.reader).get("/reviews")).body.count).toBe(0);
    expect((await as(s.reader).get("/comments")).body.count).toBe(0);
    await as(s.editor).post("/requested-reviewers", { users: [] }, 400);
    const outsider = await as(s.editor).post("/requested-reviewers", { users: [s.outsider.user.id] }, 400);
    expect(outsider.body.error.message).toContain(s.outsider.user.id);
    await as(s.editor).post("/requested-reviewers", { users: [s.reader.user.id] }, 400);
    await as(s.editor).post("/requested-reviewers", { users: [s.editor.user.id] }, 400);
    await as(s.editor).post("/requested-reviewers", { users: [s.reviewer.user.id, "nobody"] }, 400);
    // Nothing was written.
    expect((await as(s.reader).get("/requested-reviewers")).body.count).toBe(0);
    expect((await as(s.reader).get("/reviews")).body.count).toBe(0);
    await as(s.reader).get("/reviews?outdated=perhaps", 400);
  });

  it("answers 401, 404 for another organization, another space's change request or an unknown review", async () => {
    const { space, cr, base, as } = await changeRequest();
    await s.t.request.get(`${base}/reviews`).expect(401);
    await s.t.request.post(`${base}/reviews`).send({ status: "approved" }).expect(401);
    await as(s.outsider).get("/reviews", 404);
    await as(s.outsider).post("/reviews", { status: "approved" }, 404);
    await as(s.outsider).get("/requested-reviewers", 404);
    await as(s.outsider).post("/requested-reviewers", { users: [s.reviewer.user.id] }, 404);
    await as(s.reader).get("/reviews/nope", 404);
    const other = await newSpaceContent(s);
    await s.t.request
      .get(`/v1/spaces/${other.spaceId}/change-requests/${cr.id}/reviews`)
      .set(s.admin.auth)
      .expect(404);
    expect(space.spaceId).not.toBe(other.spaceId);
  });

  it("answers 409 once the change request is merged; its reviews stay readable", async () => {
    const { space, cr, as } = await changeRequest();
    await as(s.reviewer).post("/reviews", { status: "approved" }, 201);
    await space.merge(cr.number);
    const closed = await as(s.reviewer).post("/reviews", { status: "approved" }, 409);
    expect(closed.body.error.type).toBe("change_request_closed");
    await as(s.editor).post("/requested-reviewers", { users: [s.reviewer.user.id] }, 409);
    expect(statuses((await as(s.reader).get("/reviews")).body.items)).toEqual(["approved"]);
  });
});
