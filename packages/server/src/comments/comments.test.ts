import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  type ContentScenario,
  createContentScenario,
  deletePage,
  expectError,
  jsonDocument,
  textBlock,
} from "../change-requests/testing.js";
import type { TestUser } from "../testing/harness.js";
import { newThreads, PARENTS } from "./testing.js";

let s: ContentScenario;
/** The admin of another organization: every comment of this one is not found for them. */
let stranger: TestUser;
beforeAll(async () => {
  s = await createContentScenario();
  stranger = (await s.t.organization()).admin;
});
afterAll(() => s.t.close());

const markdown = (text: string) => ({ body: { markdown: text } });

/** What each caller may do with a comment or reply: its author, an admin, a commenter, a reader. */
const AUTHOR = { view: true, edit: true, reply: true, delete: true };
const ADMIN = { view: true, edit: false, reply: true, delete: true };
const COMMENTER = { view: true, edit: false, reply: true, delete: false };
const READER = { view: true, edit: false, reply: false, delete: false };

describe.each(PARENTS)("comments of a %s", (kind) => {
  describe("POST …/comments", () => {
    it("posts an open comment on a page, at its Location, and counts it", async () => {
      const p = await newThreads(s, kind);
      const res = await s.t.request
        .post(p.commentsUrl)
        .set(s.commenter.auth)
        .send({ ...markdown("Is this *right*?"), page: p.pages.Guide, node: "node-1" })
        .expect(201);
      const revision = p.changeRequest?.revision ?? (await p.content.space()).revision;
      expect(res.body).toEqual({
        object: "comment",
        id: expect.any(String),
        postedBy: expect.objectContaining({ object: "user", id: s.commenter.user.id }),
        postedAt: s.t.clock.now().toISOString(),
        reactions: [],
        replies: 0,
        repliers: [],
        permissions: AUTHOR,
        body: { markdown: "Is this *right*?" },
        target: {
          space: p.content.spaceId,
          revision,
          ...(p.changeRequest && { changeRequest: p.changeRequest.id }),
          page: expect.objectContaining({
            id: p.pages.Guide,
            title: "Guide",
            path: "guide",
            outdated: false,
          }),
          node: { id: "node-1" },
        },
        urls: { location: `http://quire.test${p.commentUrl(res.body.id)}` },
        status: "open",
      });
      expect(res.headers.location).toBe(res.body.urls.location);
      expect(await p.get(res.body.id, s.commenter)).toEqual(res.body);
      expect(await p.get(res.body.id)).toEqual({ ...res.body, permissions: ADMIN });
      await p.expectOpen(1);
    });

    it("takes the body in GitBook's document form too, and answers Markdown", async () => {
      const p = await newThreads(s, kind);
      const comment = await p.post({ body: { document: { markdown: "From *GitBook*" } } }, s.commenter);
      expect(comment.body).toEqual({ markdown: "From *GitBook*" });
      const edited = await p.update(comment.id, { body: { document: { markdown: "Edited" } } }, s.commenter);
      expect(edited.body).toEqual({ markdown: "Edited" });
      const reply = await p.reply(comment.id, "plain", s.commenter);
      const replyUrl = p.replyUrl(comment.id, reply.id);
      await s.t.request
        .put(replyUrl)
        .set(s.commenter.auth)
        .send({ body: { document: { markdown: "doc" } } })
        .expect(200);
      expect((await p.getReply(comment.id, reply.id)).body).toEqual({ markdown: "doc" });
      const posted = await s.t.request
        .post(p.repliesUrl(comment.id))
        .set(s.commenter.auth)
        .send({ body: { document: { markdown: "doc reply" } } })
        .expect(201);
      expect(posted.body.body).toEqual({ markdown: "doc reply" });
      await s.t.request
        .post(p.commentsUrl)
        .set(s.commenter.auth)
        .send({ body: { document: { text: "no markdown" } } })
        .expect(400);
      await p.expectOpen(1);
    });

    it("takes GitBook's JSON document as the body, kept and answered as Markdown; 400 for one not GitBook's", async () => {
      const p = await newThreads(s, kind);
      const hello = { body: { document: jsonDocument(textBlock("paragraph", "Hello")) } };
      const title = { body: { document: jsonDocument(textBlock("heading-2", "Title")) } };
      const comment = await p.post(hello, s.commenter);
      expect(comment.body).toEqual({ markdown: "Hello\n" });
      expect((await p.get(comment.id)).body).toEqual({ markdown: "Hello\n" });
      expect((await p.update(comment.id, title, s.commenter)).body).toEqual({ markdown: "## Title\n" });
      const reply = await s.t.request
        .post(p.repliesUrl(comment.id))
        .set(s.commenter.auth)
        .send(hello)
        .expect(201);
      expect(reply.body.body).toEqual({ markdown: "Hello\n" });
      const edited = await p.updateReply(comment.id, reply.body.id, title, s.commenter);
      expect(edited.body).toEqual({ markdown: "## Title\n" });

      // A document that is not GitBook's is refused, and nothing is written.
      const invalid = { body: { document: jsonDocument(textBlock("no-such-block", "x")) } };
      const refused = await s.t.request.post(p.commentsUrl).set(s.commenter.auth).send(invalid).expect(400);
      expectError(refused.body, 400);
      await s.t.request.put(p.commentUrl(comment.id)).set(s.commenter.auth).send(invalid).expect(400);
      await s.t.request.post(p.repliesUrl(comment.id)).set(s.commenter.auth).send(invalid).expect(400);
      await s.t.request
        .put(p.replyUrl(comment.id, reply.body.id))
        .set(s.commenter.auth)
        .send(invalid)
        .expect(400);
      expect((await p.get(comment.id)).body).toEqual({ markdown: "## Title\n" });
      expect((await p.list()).count).toBe(1);
      expect((await p.replies(comment.id)).items.map((r) => r.body)).toEqual([{ markdown: "## Title\n" }]);
      await p.expectOpen(1);
    });

    it("answers 400 for a missing body, an unknown page or a node without its page", async () => {
      const p = await newThreads(s, kind);
      await s.t.request.post(p.commentsUrl).set(s.admin.auth).send({}).expect(400);
      await s.t.request
        .post(p.commentsUrl)
        .set(s.admin.auth)
        .send({ body: { text: "x" } })
        .expect(400);
      const unknown = await s.t.request
        .post(p.commentsUrl)
        .set(s.admin.auth)
        .send({ ...markdown("x"), page: "no-such-page" })
        .expect(400);
      expectError(unknown.body, 400, "no-such-page");
      await s.t.request
        .post(p.commentsUrl)
        .set(s.admin.auth)
        .send({ ...markdown("x"), node: "n" })
        .expect(400);
      await p.expectOpen(0);
    });

    it("answers 403 to a reader and 404 to another organization", async () => {
      const p = await newThreads(s, kind);
      await s.t.request.post(p.commentsUrl).set(s.reader.auth).send(markdown("x")).expect(403);
      await s.t.request.post(p.commentsUrl).set(stranger.auth).send(markdown("x")).expect(404);
      await s.t.request.post(p.commentsUrl).set(s.outsider.auth).send(markdown("x")).expect(404);
      await p.expectOpen(0);
    });

    it("answers 409 space_deleted while the space is deleted", async () => {
      const p = await newThreads(s, kind);
      await s.t.request.delete(`/v1/spaces/${p.content.spaceId}`).set(s.admin.auth).expect(204);
      const res = await s.t.request.post(p.commentsUrl).set(s.admin.auth).send(markdown("x")).expect(409);
      expectError(res.body, 409, "deleted", "space_deleted");
      await p.expectOpen(0);
    });
  });

  describe("GET …/comments", () => {
    it("lists newest first by default, filters by status and page, and pages with cursors", async () => {
      const p = await newThreads(s, kind);
      const posted = [];
      for (const [i, page] of [p.pages.Guide, p.pages.FAQ, p.pages.Guide].entries()) {
        posted.push(await p.post({ ...markdown(`c${i}`), page }));
        s.t.clock.advance(1000);
      }
      const [first, second, third] = posted.map((c) => c.id) as [string, string, string];
      await p.update(second, { resolved: true });

      expect((await p.list()).items.map((c) => c.id)).toEqual([third, second, first]);
      expect((await p.list({ order: "asc" })).items.map((c) => c.id)).toEqual([first, second, third]);
      expect((await p.list({ status: "open" })).items.map((c) => c.id)).toEqual([third, first]);
      expect((await p.list({ status: "resolved" })).items.map((c) => c.id)).toEqual([second]);
      expect((await p.list({ targetPage: p.pages.FAQ })).items.map((c) => c.id)).toEqual([second]);
      expect((await p.list({ targetPage: "nothing" })).count).toBe(0);

      const one = await p.list({ limit: 2, order: "asc" }, s.reader);
      expect(one.count).toBe(3);
      expect(one.items.map((c) => c.id)).toEqual([first, second]);
      const two = await p.list({ limit: 2, order: "asc", page: one.next?.page ?? "" }, s.reader);
      expect(two.items.map((c) => c.id)).toEqual([third]);
      expect(two.next).toBeUndefined();
    });

    it("keeps a space's comments and a change request's apart", async () => {
      const p = await newThreads(s, kind);
      await p.post(markdown("here"));
      const space = `/v1/spaces/${p.content.spaceId}/comments`;
      const listed = (await s.t.request.get(space).set(s.admin.auth).expect(200)).body;
      expect(listed.count).toBe(kind === "space" ? 1 : 0);
    });

    it("answers 400 for a bad filter or cursor and 404 to another organization", async () => {
      const p = await newThreads(s, kind);
      await s.t.request.get(p.commentsUrl).query({ status: "closed" }).set(s.admin.auth).expect(400);
      await s.t.request.get(p.commentsUrl).query({ page: "not-a-cursor" }).set(s.admin.auth).expect(400);
      await s.t.request.get(p.commentsUrl).set(stranger.auth).expect(404);
    });
  });

  describe("GET …/comments/{commentId}", () => {
    it("reads a comment; 404 for another parent's or another organization", async () => {
      const p = await newThreads(s, kind);
      const comment = await p.post(markdown("x"), s.commenter);
      expect(await p.get(comment.id, s.reader)).toEqual({ ...comment, permissions: READER });
      expect(await p.get(comment.id, s.editor)).toEqual({ ...comment, permissions: COMMENTER });
      if (p.changeRequest) {
        // A change request's number names it as well as its id.
        const byNumber = `/v1/spaces/${p.content.spaceId}/change-requests/${p.changeRequest.number}`;
        const read = await s.t.request
          .get(`${byNumber}/comments/${comment.id}`)
          .set(s.admin.auth)
          .expect(200);
        expect(read.body).toEqual({ ...comment, permissions: ADMIN });
      }
      const other = await newThreads(s, kind);
      await s.t.request.get(other.commentUrl(comment.id)).set(s.admin.auth).expect(404);
      await s.t.request.get(p.commentUrl("missing")).set(s.admin.auth).expect(404);
      await s.t.request.get(p.commentUrl(comment.id)).set(stranger.auth).expect(404);
    });

    it("marks the target page outdated once it is gone from the content, with its last title and path", async () => {
      const p = await newThreads(s, kind);
      const comment = await p.post({ ...markdown("x"), page: p.pages.FAQ });
      if (p.changeRequest) {
        await p.content.edit(p.changeRequest.id, [deletePage(p.pages.FAQ)]);
      } else {
        const cr = await p.content.createChangeRequest();
        await p.content.edit(cr.number, [deletePage(p.pages.FAQ)]);
        await p.content.merge(cr.number);
      }
      const read = await p.get(comment.id);
      expect(read.target.page).toEqual({
        id: p.pages.FAQ,
        title: "FAQ",
        path: "faq",
        createdAt: expect.any(String),
        updatedAt: expect.any(String),
        outdated: true,
      });
      expect(read.target.revision).toBe(comment.target.revision);
      await p.expectOpen(1);
    });
  });

  describe("PUT …/comments/{commentId}", () => {
    it("resolves and reopens, by anyone who may comment, moving the counter", async () => {
      const p = await newThreads(s, kind);
      const comment = await p.post(markdown("x"), s.admin);
      s.t.clock.advance(60_000);
      const resolved = await p.update(comment.id, { resolved: true }, s.commenter);
      expect(resolved).toMatchObject({
        status: "resolved",
        resolvedAt: s.t.clock.now().toISOString(),
        resolvedBy: expect.objectContaining({ id: s.commenter.user.id }),
      });
      expect(resolved.editedAt).toBeUndefined();
      expect(resolved.permissions).toEqual(COMMENTER);
      expect(await p.get(comment.id, s.commenter)).toEqual(resolved);
      await p.expectOpen(0);
      expect(await p.update(comment.id, { resolved: true })).toEqual({ ...resolved, permissions: AUTHOR });
      await p.expectOpen(0);

      const reopened = await p.update(comment.id, { resolved: false });
      expect(reopened).toEqual({ ...comment, status: "open" });
      await p.expectOpen(1);
      expect(await p.update(comment.id, {})).toEqual(reopened);
      await p.expectOpen(1);
    });

    it("moves the counter once when the same thread is resolved and reopened concurrently", async () => {
      const p = await newThreads(s, kind);
      const comment = await p.post(markdown("x"));
      const put = (resolved: boolean) =>
        s.t.request.put(p.commentUrl(comment.id)).set(s.commenter.auth).send({ resolved }).expect(200);
      await Promise.all([put(true), put(true), put(true), put(true)]);
      expect((await p.get(comment.id)).status).toBe("resolved");
      await p.expectOpen(0);
      await Promise.all([put(false), put(false), put(false)]);
      await p.expectOpen(1);
    });

    it("edits the body by its author only, setting editedAt", async () => {
      const p = await newThreads(s, kind);
      const comment = await p.post(markdown("before"), s.commenter);
      s.t.clock.advance(1000);
      const edited = await p.update(comment.id, markdown("after"), s.commenter);
      expect(edited).toEqual({
        ...comment,
        body: { markdown: "after" },
        editedAt: s.t.clock.now().toISOString(),
      });
      expect(await p.get(comment.id, s.commenter)).toEqual(edited);
      // Not the admin, nor another commenter; a mixed request is refused whole.
      await s.t.request.put(p.commentUrl(comment.id)).set(s.admin.auth).send(markdown("no")).expect(403);
      await s.t.request
        .put(p.commentUrl(comment.id))
        .set(s.editor.auth)
        .send({ ...markdown("no"), resolved: true, addedReactions: ["👍"] })
        .expect(403);
      expect(await p.get(comment.id, s.commenter)).toEqual(edited);
      await p.expectOpen(1);
    });

    it("adds and withdraws the caller's reactions, idempotently", async () => {
      const p = await newThreads(s, kind);
      const comment = await p.post(markdown("x"));
      const first = s.t.clock.now().toISOString();
      await p.update(comment.id, { addedReactions: ["👍"] }, s.commenter);
      s.t.clock.advance(1000);
      const second = s.t.clock.now().toISOString();
      await p.update(comment.id, { addedReactions: ["🎉"] }, s.commenter);
      s.t.clock.advance(1000);
      await p.update(comment.id, { addedReactions: ["👍", "👍"] }, s.editor);
      const again = await p.update(comment.id, { addedReactions: ["👍"] }, s.editor);
      const user = (u: TestUser) => expect.objectContaining({ id: u.user.id });
      expect(again.reactions).toEqual([
        {
          emoji: "👍",
          count: 2,
          users: [
            { user: user(s.commenter), reactedAt: first },
            { user: user(s.editor), reactedAt: s.t.clock.now().toISOString() },
          ],
        },
        { emoji: "🎉", count: 1, users: [{ user: user(s.commenter), reactedAt: second }] },
      ]);
      const withdrawn = await p.update(
        comment.id,
        { addedReactions: ["🎉"], removedReactions: ["🎉", "👍", "🚀"] },
        s.commenter,
      );
      expect(withdrawn.reactions).toEqual([
        {
          emoji: "👍",
          count: 1,
          users: [{ user: user(s.editor), reactedAt: s.t.clock.now().toISOString() }],
        },
      ]);
      expect((await p.get(comment.id)).reactions).toEqual(withdrawn.reactions);
      expect(withdrawn.editedAt).toBeUndefined();
    });

    it("answers 403 to a reader, 400 for a bad body and 404", async () => {
      const p = await newThreads(s, kind);
      const comment = await p.post(markdown("x"));
      const url = p.commentUrl(comment.id);
      await s.t.request.put(url).set(s.reader.auth).send({ resolved: true }).expect(403);
      await s.t.request
        .put(url)
        .set(s.reader.auth)
        .send({ addedReactions: ["👍"] })
        .expect(403);
      await s.t.request.put(url).set(s.admin.auth).send({ resolved: "yes" }).expect(400);
      await s.t.request
        .put(url)
        .set(s.admin.auth)
        .send({ addedReactions: ["x".repeat(51)] })
        .expect(400);
      await s.t.request.put(url).set(stranger.auth).send({ resolved: true }).expect(404);
      await s.t.request.put(p.commentUrl("missing")).set(s.admin.auth).send({ resolved: true }).expect(404);
      expect(await p.get(comment.id)).toEqual(comment);
      await p.expectOpen(1);
    });
  });

  describe("DELETE …/comments/{commentId}", () => {
    it("deletes a comment with its replies, by its author or an admin of the space", async () => {
      const p = await newThreads(s, kind);
      const own = await p.post(markdown("mine"), s.commenter);
      const other = await p.post(markdown("theirs"), s.editor);
      await p.reply(own.id, "a reply", s.editor);
      await p.expectOpen(2);
      await s.t.request.delete(p.commentUrl(own.id)).set(s.commenter.auth).expect(204);
      await s.t.request.get(p.commentUrl(own.id)).set(s.admin.auth).expect(404);
      await s.t.request.get(p.repliesUrl(own.id)).set(s.admin.auth).expect(404);
      const orphans = await s.t.db
        .selectFrom("comment_replies")
        .selectAll()
        .where("comment_id", "=", own.id)
        .execute();
      expect(orphans).toEqual([]);
      await p.expectOpen(1);

      await p.update(other.id, { resolved: true });
      await p.expectOpen(0);
      await s.t.request.delete(p.commentUrl(other.id)).set(s.admin.auth).expect(204);
      await p.expectOpen(0);
      expect((await p.list()).count).toBe(0);
    });

    it("answers 403 to another commenter and 404", async () => {
      const p = await newThreads(s, kind);
      const comment = await p.post(markdown("x"), s.editor);
      const url = p.commentUrl(comment.id);
      await s.t.request.delete(url).set(s.commenter.auth).expect(403);
      await s.t.request.delete(url).set(s.reader.auth).expect(403);
      await s.t.request.delete(url).set(stranger.auth).expect(404);
      await s.t.request.delete(p.commentUrl("missing")).set(s.admin.auth).expect(404);
      expect(await p.get(comment.id, s.editor)).toEqual(comment);
      await p.expectOpen(1);
    });
  });

  describe("replies", () => {
    it("posts replies that count on their comment, oldest first, and reads one", async () => {
      const p = await newThreads(s, kind);
      const comment = await p.post(markdown("x"));
      const firstAt = s.t.clock.now().toISOString();
      const first = await p.reply(comment.id, "one", s.commenter);
      s.t.clock.advance(1000);
      const res = await s.t.request
        .post(p.repliesUrl(comment.id))
        .set(s.editor.auth)
        .send(markdown("two"))
        .expect(201);
      expect(res.body).toEqual({
        object: "comment-reply",
        id: expect.any(String),
        postedBy: expect.objectContaining({ id: s.editor.user.id }),
        postedAt: s.t.clock.now().toISOString(),
        reactions: [],
        body: { markdown: "two" },
        urls: { location: `http://quire.test${p.replyUrl(comment.id, res.body.id)}` },
        permissions: AUTHOR,
      });
      expect(res.headers.location).toBe(res.body.urls.location);
      expect(await p.getReply(comment.id, res.body.id, s.reader)).toEqual({
        ...res.body,
        permissions: READER,
      });
      expect(await p.getReply(comment.id, res.body.id)).toEqual({ ...res.body, permissions: ADMIN });
      expect(await p.get(comment.id)).toMatchObject({
        replies: 2,
        repliers: [
          { user: expect.objectContaining({ id: s.commenter.user.id }), count: 1, updatedAt: firstAt },
          { user: expect.objectContaining({ id: s.editor.user.id }), count: 1, updatedAt: res.body.postedAt },
        ],
      });
      const listed = await p.replies(comment.id, { limit: 1 }, s.commenter);
      expect(listed).toMatchObject({ count: 2, items: [first] });
      const next = await p.replies(comment.id, { limit: 1, page: listed.next?.page ?? "" }, s.editor);
      expect(next.items).toEqual([res.body]);
      // Replying to a resolved thread leaves it resolved, and never moves the counters.
      await p.update(comment.id, { resolved: true });
      await p.reply(comment.id, "three");
      expect((await p.get(comment.id)).status).toBe("resolved");
      await p.expectOpen(0);
    });

    it("answers 400, 403 and 404 on replies", async () => {
      const p = await newThreads(s, kind);
      const comment = await p.post(markdown("x"));
      const reply = await p.reply(comment.id, "r", s.editor);
      const other = await p.post(markdown("y"));
      await s.t.request.post(p.repliesUrl(comment.id)).set(s.admin.auth).send({}).expect(400);
      await s.t.request.get(p.repliesUrl(comment.id)).query({ limit: -1 }).set(s.admin.auth).expect(400);
      await s.t.request.post(p.repliesUrl(comment.id)).set(s.reader.auth).send(markdown("r")).expect(403);
      await s.t.request
        .put(p.replyUrl(comment.id, reply.id))
        .set(s.commenter.auth)
        .send(markdown("r"))
        .expect(403);
      await s.t.request.delete(p.replyUrl(comment.id, reply.id)).set(s.commenter.auth).expect(403);
      await s.t.request.get(p.replyUrl(other.id, reply.id)).set(s.admin.auth).expect(404);
      await s.t.request.get(p.replyUrl(comment.id, reply.id)).set(stranger.auth).expect(404);
      await s.t.request.get(p.repliesUrl(comment.id)).set(stranger.auth).expect(404);
      await s.t.request.post(p.repliesUrl(comment.id)).set(stranger.auth).send(markdown("r")).expect(404);
      await s.t.request.put(p.replyUrl(comment.id, reply.id)).set(stranger.auth).send({}).expect(404);
      await s.t.request.delete(p.replyUrl(comment.id, reply.id)).set(stranger.auth).expect(404);
      expect(await p.getReply(comment.id, reply.id, s.editor)).toEqual(reply);
      expect((await p.get(comment.id)).replies).toBe(1);
    });

    it("edits a reply by its author, reacts, and deletes it by an admin", async () => {
      const p = await newThreads(s, kind);
      const comment = await p.post(markdown("x"));
      const reply = await p.reply(comment.id, "before", s.commenter);
      s.t.clock.advance(1000);
      const edited = await p.updateReply(comment.id, reply.id, markdown("after"), s.commenter);
      expect(edited).toEqual({
        ...reply,
        body: { markdown: "after" },
        editedAt: s.t.clock.now().toISOString(),
      });
      const reacted = await p.updateReply(comment.id, reply.id, { addedReactions: ["👀"] }, s.editor);
      expect(reacted.reactions).toEqual([
        {
          emoji: "👀",
          count: 1,
          users: [{ user: expect.objectContaining({ id: s.editor.user.id }), reactedAt: expect.any(String) }],
        },
      ]);
      expect(await p.getReply(comment.id, reply.id, s.editor)).toEqual(reacted);
      // The comment's own reactions are apart from its replies'.
      expect((await p.get(comment.id)).reactions).toEqual([]);
      await s.t.request.delete(p.replyUrl(comment.id, reply.id)).set(s.admin.auth).expect(204);
      await s.t.request.get(p.replyUrl(comment.id, reply.id)).set(s.admin.auth).expect(404);
      expect((await p.get(comment.id)).replies).toBe(0);
      const reactions = await s.t.db
        .selectFrom("comment_reactions")
        .selectAll()
        .where("subject_id", "=", reply.id)
        .execute();
      expect(reactions).toEqual([]);
      await p.expectOpen(1);
    });

    it(`${kind === "change request" ? "resolves" : "does not resolve"} the thread from a reply`, async () => {
      const p = await newThreads(s, kind);
      const comment = await p.post(markdown("x"));
      const reply = await p.reply(comment.id, "done");
      const res = await s.t.request
        .put(p.replyUrl(comment.id, reply.id))
        .set(s.commenter.auth)
        .send({ resolved: true });
      expect(res.status).toBe(200);
      expect(res.body).toEqual({ ...reply, permissions: COMMENTER });
      if (kind === "space") {
        // The space's contract has no `resolved` on replies: the thread stays open.
        expect((await p.get(comment.id)).status).toBe("open");
        await p.expectOpen(1);
        return;
      }
      expect(await p.get(comment.id)).toMatchObject({
        status: "resolved",
        resolvedBy: expect.objectContaining({ id: s.commenter.user.id }),
      });
      await p.expectOpen(0);
      await s.t.request
        .put(p.replyUrl(comment.id, reply.id))
        .set(s.reader.auth)
        .send({ resolved: false })
        .expect(403);
      await p.updateReply(comment.id, reply.id, { resolved: false });
      await p.expectOpen(1);
    });
  });
});
