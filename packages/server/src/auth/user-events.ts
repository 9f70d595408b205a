import type { Clock, IdGenerator } from "../context.js";
import type { Db } from "../db/database.js";
import { type EventData, type EventType, recordEvent } from "../events/record.js";

/**
 * Records what happened to a user's credentials (tokens, sessions, password) in each of their
 * organizations: a credential belongs to a user, not to an organization, and opens all of theirs.
 */
export async function recordUserEvent<T extends EventType>(
  tx: Db,
  context: { clock: Clock; ids: IdGenerator },
  userId: string,
  event: { type: T; data: EventData<T>; actorId?: string },
): Promise<void> {
  const organizations = await tx
    .selectFrom("memberships")
    .select("organization_id")
    .where("user_id", "=", userId)
    // Each organization's event counter is locked until the commit: always in the same order.
    .orderBy("organization_id")
    .execute();
  for (const { organization_id } of organizations)
    await recordEvent(tx, context, { organizationId: organization_id, ...event });
}
