import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Db } from "../db/database.js";
import type { ChangeRequestTable, CommentTable } from "../db/schema.js";
import { buildSpace } from "../testing/factories.js";
import { createOrganizationScenario, type TestApp, type TestUser } from "../testing/harness.js";
import { adjustSpaceActivity, countSpaceActivity } from "./activity.js";

let t: TestApp;
let organizationId: string;
let admin: TestUser;
beforeAll(async () => {
  ({ t, organizationId, admin } = await createOrganizationScenario());
});
afterAll(() => t.close());

/** What the change-request and comment areas do: the row and its counter move in one transaction. */
async function openChangeRequest(
  db: Db,
  spaceId: string,
  status: ChangeRequestTable["status"],
  number: number,
) {
  await db.transaction().execute(async (tx) => {
    await tx
      .insertInto("change_requests")
      .values({
        id: t.ids.next(),
        space_id: spaceId,
        number,
        status,
        created_at: t.clock.now().toISOString(),
      })
      .execute();
    await adjustSpaceActivity(tx, spaceId, {
      change_requests: 1,
      open_change_requests: status === "open" ? 1 : 0,
      draft_change_requests: status === "draft" ? 1 : 0,
    });
  });
}

async function postComment(db: Db, spaceId: string, changeRequestId: string | null) {
  const comment: CommentTable = {
    id: t.ids.next(),
    space_id: spaceId,
    change_request_id: changeRequestId,
    status: "open",
    created_at: t.clock.now().toISOString(),
  };
  await db.transaction().execute(async (tx) => {
    await tx.insertInto("comments").values(comment).execute();
    if (changeRequestId === null) await adjustSpaceActivity(tx, spaceId, { open_comments: 1 });
  });
  return comment;
}

describe("space activity counters", () => {
  it("agree with a recount from scratch, and count only the space's own comments", async () => {
    const space = await buildSpace(t, { organization_id: organizationId });
    await openChangeRequest(t.db, space.id, "open", 1);
    await openChangeRequest(t.db, space.id, "draft", 2);
    await openChangeRequest(t.db, space.id, "merged", 3);
    const changeRequest = await t.db
      .selectFrom("change_requests")
      .select("id")
      .where("space_id", "=", space.id)
      .where("number", "=", 1)
      .executeTakeFirstOrThrow();
    const resolved = await postComment(t.db, space.id, null);
    await t.db.transaction().execute(async (tx) => {
      await tx.updateTable("comments").set({ status: "resolved" }).where("id", "=", resolved.id).execute();
      await adjustSpaceActivity(tx, space.id, { open_comments: -1 });
    });
    await postComment(t.db, space.id, null);
    await postComment(t.db, space.id, changeRequest.id);

    const res = await t.request.get(`/v1/spaces/${space.id}`).set(admin.auth).expect(200);
    expect(res.body).toMatchObject({
      comments: 1,
      changeRequests: 3,
      changeRequestsOpen: 1,
      changeRequestsDraft: 1,
    });
    const stored = await t.db
      .selectFrom("spaces")
      .select(["open_comments", "change_requests", "open_change_requests", "draft_change_requests"])
      .where("id", "=", space.id)
      .executeTakeFirstOrThrow();
    expect(await countSpaceActivity(t.db, space.id)).toEqual(stored);
  });

  it("roll back with the write that failed", async () => {
    const space = await buildSpace(t, { organization_id: organizationId });
    await expect(
      t.db.transaction().execute(async (tx) => {
        await adjustSpaceActivity(tx, space.id, { open_comments: 1 });
        throw new Error("the comment could not be stored");
      }),
    ).rejects.toThrow("could not be stored");
    expect(await countSpaceActivity(t.db, space.id)).toEqual({
      open_comments: 0,
      change_requests: 0,
      open_change_requests: 0,
      draft_change_requests: 0,
    });
    const res = await t.request.get(`/v1/spaces/${space.id}`).set(admin.auth).expect(200);
    expect(res.body.comments).toBe(0);
  });
});
