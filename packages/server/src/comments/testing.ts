import type { Schema } from "@quire/api-types";
import { expect } from "vitest";
import { type ContentScenario, insertPage, newSpaceContent } from "../change-requests/testing.js";
import { countSpaceActivity } from "../spaces/activity.js";
import type { TestUser } from "../testing/harness.js";

type Comment = Schema<"Comment">;
type Reply = Schema<"CommentReply">;

/** The two parents of comments: a space's main content, and a change request of it. */
export const PARENTS = ["space", "change request"] as const;
export type ParentKind = (typeof PARENTS)[number];

/**
 * A new space with two pages (`Guide`, `FAQ`), and when `kind` is a change request one of its
 * change requests, with a client for the comments of that parent, as the scenario's admin unless told.
 */
export async function newThreads(s: ContentScenario, kind: ParentKind) {
  const content = await newSpaceContent(s);
  const pages = (await content.seed([insertPage("Guide", "Hello"), insertPage("FAQ", "Questions")])) as {
    Guide: string;
    FAQ: string;
  };
  const changeRequest = kind === "change request" ? await content.createChangeRequest() : undefined;
  const base = `/v1/spaces/${content.spaceId}${changeRequest ? `/change-requests/${changeRequest.id}` : ""}`;
  const { t, admin } = s;
  const request = t.request;

  const client = {
    kind,
    content,
    pages,
    changeRequest,
    base,
    commentsUrl: `${base}/comments`,
    commentUrl: (id: string) => `${base}/comments/${id}`,
    repliesUrl: (id: string) => `${base}/comments/${id}/replies`,
    replyUrl: (id: string, replyId: string) => `${base}/comments/${id}/replies/${replyId}`,

    async post(body: object, user: TestUser = admin): Promise<Comment> {
      return (await request.post(client.commentsUrl).set(user.auth).send(body).expect(201)).body;
    },
    async get(id: string, user: TestUser = admin): Promise<Comment> {
      return (await request.get(client.commentUrl(id)).set(user.auth).expect(200)).body;
    },
    async update(id: string, body: object, user: TestUser = admin): Promise<Comment> {
      return (await request.put(client.commentUrl(id)).set(user.auth).send(body).expect(200)).body;
    },
    async list(query: Record<string, string | number> = {}, user: TestUser = admin) {
      const res = await request.get(client.commentsUrl).query(query).set(user.auth).expect(200);
      return res.body as Schema<"CommentPage">;
    },
    async reply(id: string, markdown: string, user: TestUser = admin): Promise<Reply> {
      return (
        await request.post(client.repliesUrl(id)).set(user.auth).send({ body: { markdown } }).expect(201)
      ).body;
    },
    async getReply(id: string, replyId: string, user: TestUser = admin): Promise<Reply> {
      return (await request.get(client.replyUrl(id, replyId)).set(user.auth).expect(200)).body;
    },
    async updateReply(id: string, replyId: string, body: object, user: TestUser = admin): Promise<Reply> {
      return (await request.put(client.replyUrl(id, replyId)).set(user.auth).send(body).expect(200)).body;
    },
    async replies(id: string, query: Record<string, string | number> = {}, user: TestUser = admin) {
      const res = await request.get(client.repliesUrl(id)).query(query).set(user.auth).expect(200);
      return res.body as Schema<"CommentReplyPage">;
    },

    /**
     * Asserts the open comments of the parent, as `Space.comments` (space) or `ChangeRequest.comments`
     * (change request) and the list of open comments count them, and that the space's counter agrees
     * with a recount from scratch; a change request's comments never move the space's.
     */
    async expectOpen(open: number) {
      const space = await content.space();
      const recount = await countSpaceActivity(t.db, content.spaceId);
      expect(space.comments).toBe(recount.open_comments);
      if (changeRequest) {
        expect(space.comments).toBe(0);
        expect((await content.getChangeRequest(changeRequest.id)).comments).toBe(open);
      } else {
        expect(space.comments).toBe(open);
      }
      expect((await client.list({ status: "open" })).count).toBe(open);
    },
  };
  return client;
}
