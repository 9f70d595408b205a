import { type Kysely, sql } from "kysely";
import type { ChangeRequestTable } from "../change-requests/index.js";
import type { Db } from "../db/database.js";
import type { Database, SpaceTable } from "../db/schema.js";

/** The space's activity counters, kept on its row so that reading a space never counts rows. */
export type ActivityColumn =
  | "open_comments"
  | "change_requests"
  | "open_change_requests"
  | "draft_change_requests";

export const noActivity: Pick<SpaceTable, ActivityColumn> = {
  open_comments: 0,
  change_requests: 0,
  open_change_requests: 0,
  draft_change_requests: 0,
};

/**
 * Moves a space's counters by the given amounts. Call it in the transaction of the write that
 * causes the change (a comment opened or resolved, a change request created or changing status),
 * so that a counter never disagrees with the rows it counts.
 */
export async function adjustSpaceActivity(
  tx: Kysely<Database>,
  spaceId: string,
  change: Partial<Record<ActivityColumn, number>>,
): Promise<void> {
  const entries = Object.entries(change).filter(([, delta]) => delta !== 0) as [ActivityColumn, number][];
  if (entries.length === 0) return;
  await tx
    .updateTable("spaces")
    .set(Object.fromEntries(entries.map(([column, delta]) => [column, sql`${sql.ref(column)} + ${delta}`])))
    .where("id", "=", spaceId)
    .execute();
}

/** The counters as the rows say they should be, counted from scratch (for checks and repairs). */
export async function countSpaceActivity(db: Db, spaceId: string): Promise<Pick<SpaceTable, ActivityColumn>> {
  const changeRequests = (status?: ChangeRequestTable["status"]) =>
    db
      .selectFrom("change_requests")
      .select((eb) => eb.fn.countAll<number | string>().as("n"))
      .where("space_id", "=", spaceId)
      .$if(status !== undefined, (q) => q.where("status", "=", status as ChangeRequestTable["status"]));
  const row = await db
    .selectNoFrom([
      db
        .selectFrom("comments")
        .select((eb) => eb.fn.countAll<number | string>().as("n"))
        .where("space_id", "=", spaceId)
        .where("change_request_id", "is", null)
        .where("status", "=", "open")
        .as("open_comments"),
      changeRequests().as("change_requests"),
      changeRequests("open").as("open_change_requests"),
      changeRequests("draft").as("draft_change_requests"),
    ])
    .executeTakeFirstOrThrow();
  return {
    open_comments: Number(row.open_comments),
    change_requests: Number(row.change_requests),
    open_change_requests: Number(row.open_change_requests),
    draft_change_requests: Number(row.draft_change_requests),
  };
}

/** How the counters move when a change request goes from one status to another (null: it is new). */
export function changeRequestStatusActivity(
  from: ChangeRequestTable["status"] | null,
  to: ChangeRequestTable["status"],
): Partial<Record<ActivityColumn, number>> {
  const counted = (status: ChangeRequestTable["status"] | null, column: "open" | "draft") =>
    status === column ? 1 : 0;
  return {
    change_requests: from === null ? 1 : 0,
    open_change_requests: counted(to, "open") - counted(from, "open"),
    draft_change_requests: counted(to, "draft") - counted(from, "draft"),
  };
}
