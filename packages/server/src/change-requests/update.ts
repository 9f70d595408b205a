import type { Schema } from "@quire/api-types";
import type { IdGenerator } from "../context.js";
import { fromJson, toJson } from "../db/codecs.js";
import type { Db } from "../db/database.js";
import { recordEvent } from "../events/record.js";
import { badRequest, conflict } from "../http/errors.js";
import type { Services } from "../services.js";
import { assertSpaceNotDeleted } from "../spaces/index.js";
import type { MemberChangeRequest } from "./access.js";
import { changeRequestEventData } from "./events.js";
import { type ChangeRequestRow, changeRequestOf, lockSpace, updateChangeRequest } from "./store.js";

/**
 * The description and links an update gives the change request, as stored; only those that differ.
 * A link keeps its id when given one the change request has (400 for any other), and a new link gets
 * one.
 */
function describedChanges(
  current: ChangeRequestRow,
  body: Schema<"UpdateChangeRequestRequest">,
  ids: IdGenerator,
): Partial<Pick<ChangeRequestRow, "description" | "links">> {
  const description =
    body.description === undefined ? undefined : body.description === null ? null : toJson(body.description);
  let links: ChangeRequestRow["links"] | undefined;
  if (body.links !== undefined) {
    const known = new Set((current.links === null ? [] : fromJson(current.links)).map((link) => link.id));
    links = toJson(
      body.links.map(({ id, ref, title }) => {
        if (id !== undefined && !known.has(id))
          throw badRequest(`links: the change request has no link "${id}"; leave its id out to add it.`);
        return { id: id ?? ids.next(), ref, ...(title !== undefined && { title }) };
      }),
    );
  }
  return {
    ...(description !== undefined && description !== current.description && { description }),
    ...(links !== undefined && links !== current.links && { links }),
  };
}

/**
 * Changes the member's change request as `body` says, in `tx` under its space's lock, with the events
 * of what changed; fields left out stay, and nothing is written when nothing differs. 409 once merged.
 * The caller's right to change it is checked before.
 */
export async function changeChangeRequest(
  tx: Db,
  services: Services,
  member: MemberChangeRequest,
  body: Schema<"UpdateChangeRequestRequest">,
  actorId: string,
): Promise<{ space: MemberChangeRequest["space"]; changeRequest: ChangeRequestRow }> {
  const space = await lockSpace(tx, member.space.id);
  const current = await changeRequestOf(tx, space.id, member.changeRequest.id);
  const described = describedChanges(current, body, services.ids);
  const changes = {
    ...(body.subject !== undefined && body.subject !== current.subject && { subject: body.subject }),
    ...(body.status !== undefined && body.status !== current.status && { status: body.status }),
    ...described,
  };
  if (
    body.subject === undefined &&
    body.status === undefined &&
    body.description === undefined &&
    body.links === undefined
  )
    return { space, changeRequest: current };
  assertSpaceNotDeleted(space);
  if (current.status === "merged")
    throw conflict("A merged change request cannot change.", "change_request_closed");
  if (Object.keys(changes).length === 0) return { space, changeRequest: current };
  const updated = await updateChangeRequest(tx, current, changes, services.now());
  const event = { organizationId: space.organization_id, actorId, spaceId: space.id };
  const fields = (["subject", "description", "links"] as const).filter((field) => field in changes);
  if (fields.length > 0)
    await recordEvent(tx, services, {
      ...event,
      type: "change_request_updated",
      data: { ...changeRequestEventData(updated), changes: fields },
    });
  if (changes.status !== undefined)
    await recordEvent(tx, services, {
      ...event,
      type: "change_request_status_updated",
      data: { ...changeRequestEventData(updated), previousStatus: current.status },
    });
  return { space, changeRequest: updated };
}
