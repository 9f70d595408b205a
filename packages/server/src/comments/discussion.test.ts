import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type ContentScenario, createContentScenario } from "../change-requests/testing.js";
import type { TestUser } from "../testing/harness.js";
import { newThreads, PARENTS } from "./testing.js";

let s: ContentScenario;
beforeAll(async () => {
  s = await createContentScenario();
});
afterAll(() => s.t.close());

const who = (u: TestUser) => expect.objectContaining({ id: u.user.id });

describe.each(PARENTS)("a whole discussion on a %s", (kind) => {
  it("posts, replies, reacts, edits, resolves, reopens and deletes, read back after every step", async () => {
    const p = await newThreads(s, kind);
    const { commenter: author, editor: answerer } = s;
    const now = () => s.t.clock.now().toISOString();
    /**
     * The comment as its GET, its list and its replies show it to its author, each agreeing with the
     * other; a reader sees the same but may only read it.
     */
    const state = async (id: string) => {
      const comment = await p.get(id, author);
      expect((await p.list({}, author)).items).toEqual([comment]);
      expect((await p.replies(id, {}, s.reader)).count).toBe(comment.replies);
      expect(await p.get(id, s.reader)).toEqual({
        ...comment,
        permissions: { view: true, edit: false, reply: false, delete: false },
      });
      return comment;
    };

    // Post, on a page.
    const posted = await p.post({ body: { markdown: "Typo in step 2?" }, page: p.pages.Guide }, author);
    expect(await state(posted.id)).toEqual(posted);
    expect(posted).toMatchObject({ status: "open", replies: 0, reactions: [] });
    await p.expectOpen(1);

    // Reply.
    s.t.clock.advance(60_000);
    const reply = await p.reply(posted.id, "Yes, fixing it.", answerer);
    const replied = {
      ...posted,
      replies: 1,
      repliers: [{ user: who(answerer), count: 1, updatedAt: reply.postedAt }],
    };
    expect(await state(posted.id)).toEqual(replied);
    expect((await p.replies(posted.id, {}, answerer)).items).toEqual([reply]);
    await p.expectOpen(1);

    // React, to the comment and to the reply; twice counts once.
    s.t.clock.advance(1000);
    const reactedAt = now();
    await p.update(posted.id, { addedReactions: ["👍"] }, answerer);
    await p.update(posted.id, { addedReactions: ["👍"] }, answerer);
    await p.updateReply(posted.id, reply.id, { addedReactions: ["🙏"] }, author);
    const reactions = [{ emoji: "👍", count: 1, users: [{ user: who(answerer), reactedAt }] }];
    expect(await state(posted.id)).toEqual({ ...replied, reactions });
    expect((await p.getReply(posted.id, reply.id)).reactions).toEqual([
      { emoji: "🙏", count: 1, users: [{ user: who(author), reactedAt }] },
    ]);
    await p.expectOpen(1);

    // Edit, by the author.
    s.t.clock.advance(1000);
    const editedAt = now();
    await p.update(posted.id, { body: { markdown: "Typo in step 2." } }, author);
    const edited = { ...replied, reactions, body: { markdown: "Typo in step 2." }, editedAt };
    expect(await state(posted.id)).toEqual(edited);
    await p.expectOpen(1);

    // Resolve, by the one who fixed it.
    s.t.clock.advance(1000);
    const resolvedAt = now();
    await p.update(posted.id, { resolved: true }, answerer);
    expect(await state(posted.id)).toEqual({
      ...edited,
      status: "resolved",
      resolvedAt,
      resolvedBy: who(answerer),
    });
    expect((await p.list({ status: "open" })).count).toBe(0);
    await p.expectOpen(0);

    // Reopen, by the author.
    await p.update(posted.id, { resolved: false }, author);
    expect(await state(posted.id)).toEqual(edited);
    await p.expectOpen(1);

    // Delete the reply, then the comment.
    await s.t.request.delete(p.replyUrl(posted.id, reply.id)).set(answerer.auth).expect(204);
    expect(await state(posted.id)).toEqual({ ...edited, replies: 0, repliers: [] });
    await p.expectOpen(1);
    await s.t.request.delete(p.commentUrl(posted.id)).set(author.auth).expect(204);
    await s.t.request.get(p.commentUrl(posted.id)).set(s.reader.auth).expect(404);
    expect(await p.list()).toEqual({ count: 0, items: [] });
    await p.expectOpen(0);
  });
});
