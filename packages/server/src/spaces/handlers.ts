import type { AccessMap, AreaHandlers } from "../area.js";
import type { Caller } from "../auth/caller.js";
import { transferSpace } from "../commands/transfer-content.js";
import { truncateTitle } from "../content/titles.js";
import {
  assertMoveChangesSomething,
  authorizeCreateUnder,
  defaultLevelColumns,
  endPosition,
  lockContentTree,
  placeAmongSiblings,
  settleInheritedLevels,
} from "../content/tree.js";
import type { Transaction } from "../db/database.js";
import type { SpaceTable } from "../db/schema.js";
import { type EventData, recordEvent } from "../events/record.js";
import { badRequest, conflict, notFound, preconditionFailed } from "../http/errors.js";
import { presentPage } from "../http/paging.js";
import { created, noContent, ok } from "../http/results.js";
import { canTransferOut, membershipIn, onOrganization } from "../organizations/index.js";
import { authorize, canCreateContent, roleOnContent } from "../policy.js";
import { storedMergeRules } from "../reviews/index.js";
import type { Services } from "../services.js";
import { onSpace } from "./access.js";
import { changedSpaceFields, spaceEventData } from "./events.js";
import { assertSpaceNotDeleted, canManageSpace } from "./policy.js";
import { presentSpace, presentSpaceFor } from "./presenter.js";
import { getSpace, insertSpace, listSpacesInOrganization, updateSpace } from "./store.js";

const SPACE_TITLE_MAX = 50;

const manages = (action: string) => onSpace(action, ({ role }) => canManageSpace(role));

export const spaceAccess = {
  listSpacesInOrganizationById: onOrganization("list its spaces"),
  listDeletedSpacesInOrganizationById: onOrganization("list its deleted spaces"),
  // Where the space may go (the top level or a collection) is checked against the caller's role there.
  createSpace: onOrganization("create spaces"),
  getSpaceById: onSpace("read this space"),
  updateSpaceById: manages("update this space"),
  deleteSpaceById: manages("delete this space"),
  duplicateSpace: onSpace("duplicate this space"),
  restoreSpace: manages("restore this space"),
  moveSpace: manages("move this space"),
  transferSpace: onSpace("transfer content out of this organization", ({ organizationRole }) =>
    canTransferOut(organizationRole),
  ),
} satisfies AccessMap;

export function spaceHandlers(services: Services): AreaHandlers<typeof spaceAccess> {
  const { db, urls, now, clock, transaction } = services;

  /** Records an event about `space` in its organization, caused by `caller`. */
  const recordSpaceEvent = <
    T extends "space_created" | "space_updated" | "space_deleted" | "space_restored" | "space_moved",
  >(
    tx: Transaction,
    caller: Caller,
    type: T,
    space: SpaceTable,
    extra?: Omit<EventData<T>, keyof EventData<"space_created">>,
  ) =>
    recordEvent(tx, services, {
      organizationId: space.organization_id,
      type,
      actorId: caller.user.id,
      spaceId: space.id,
      data: { ...spaceEventData(space), ...extra } as EventData<T>,
    });

  return {
    async listSpacesInOrganizationById({ path, query, caller }, { role }) {
      const args = { organizationId: path.organizationId, userId: caller.user.id, role };
      const page = await listSpacesInOrganization(db, args, query);
      return ok(presentPage(page, presentSpaceFor(role, urls)));
    },

    async listDeletedSpacesInOrganizationById({ path, query, caller }, { role }) {
      const deleted = { now: clock.now() };
      const args = { organizationId: path.organizationId, userId: caller.user.id, role, deleted };
      const page = await listSpacesInOrganization(db, args, query);
      return ok(presentPage(page, presentSpaceFor(role, urls)));
    },

    async createSpace({ body = {}, caller }, { organization, role }) {
      if (body.template !== undefined)
        throw badRequest("template: Quire has no space templates; leave it out.");
      if (body.computedSource !== undefined)
        throw badRequest("computedSource: Quire computes no spaces from a source; leave it out.");
      const parentId = body.parent ?? null;
      const space = await transaction(async (tx) => {
        await lockContentTree(tx, [organization.id]);
        await authorizeCreateUnder(tx, organization.id, role, parentId);
        const inserted = await insertSpace(tx, services, {
          organization_id: organization.id,
          parent_id: parentId,
          title: body.title ?? "Untitled",
          emoji: body.emoji ?? "",
          visibility: "private",
          edit_mode: body.editMode ?? "live",
          default_level: "read",
          language: body.language ?? null,
          position: await endPosition(tx, organization.id, parentId),
        });
        await recordSpaceEvent(tx, caller, "space_created", inserted);
        return inserted;
      });
      return created(presentSpaceFor(role, urls)(space));
    },

    async getSpaceById(_input, { space, role }) {
      return ok(presentSpace(space, role, urls));
    },

    async updateSpaceById({ body, caller }, member) {
      assertSpaceNotDeleted(member.space);
      if (body.icon !== undefined && body.icon !== null)
        throw badRequest(
          "icon: Quire keeps no space icon; only null (remove) is taken. Set an emoji instead.",
        );
      const mergeRules =
        body.mergeRules === undefined
          ? undefined
          : await storedMergeRules(db, member.space.organization_id, body.mergeRules, "inherit");
      const changes = {
        ...(mergeRules !== undefined && { merge_rules: mergeRules }),
        ...(body.title !== undefined && { title: body.title }),
        ...(body.emoji !== undefined && { emoji: body.emoji ?? "" }),
        ...(body.language !== undefined && { language: body.language }),
        ...(body.editMode !== undefined && { edit_mode: body.editMode }),
        ...defaultLevelColumns(body.defaultLevel),
      };
      const updated = await transaction(async (tx) => {
        const organizationId = member.space.organization_id;
        const levelChanges = body.defaultLevel !== undefined;
        if (levelChanges) await lockContentTree(tx, [organizationId]);
        let row = await updateSpace(tx, member.space, changes, now());
        if (levelChanges) {
          await settleInheritedLevels(tx, organizationId);
          row = await getSpace(tx, row.id);
        }
        const fields = changedSpaceFields(member.space, row);
        if (fields.length > 0) await recordSpaceEvent(tx, caller, "space_updated", row, { changes: fields });
        return row;
      });
      return ok(presentSpaceFor(member.organizationRole, urls)(updated));
    },

    async deleteSpaceById({ caller }, { space }) {
      // Deleting again keeps the first deletion time, so the restore window is not extended.
      if (space.deleted_at === null)
        await transaction(async (tx) => {
          const deleted = await updateSpace(tx, space, { deleted_at: now() }, now());
          await recordSpaceEvent(tx, caller, "space_deleted", deleted);
        });
      return noContent();
    },

    async duplicateSpace({ caller }, { space, organizationRole }) {
      assertSpaceNotDeleted(space);
      const copy = await transaction(async (tx) => {
        await lockContentTree(tx, [space.organization_id]);
        await authorizeCreateUnder(tx, space.organization_id, organizationRole, space.parent_id);
        const duplicate = await insertSpace(tx, services, {
          organization_id: space.organization_id,
          parent_id: space.parent_id,
          title: truncateTitle(`${space.title} (copy)`, SPACE_TITLE_MAX),
          emoji: space.emoji,
          visibility: space.visibility,
          edit_mode: space.edit_mode,
          default_level: space.default_level,
          language: space.language,
          position: await endPosition(tx, space.organization_id, space.parent_id),
        });
        await placeAmongSiblings(
          tx,
          space.organization_id,
          space.parent_id,
          { kind: "space", id: duplicate.id },
          { after: { type: "space", space: space.id } },
        );
        const copy = await getSpace(tx, duplicate.id);
        await recordSpaceEvent(tx, caller, "space_created", copy);
        return copy;
      });
      return created(presentSpaceFor(organizationRole, urls)(copy));
    },

    async restoreSpace({ caller }, { space, role }) {
      if (space.deleted_at === null) throw conflict("The space is not deleted.", "already_done");
      const restored = await transaction(async (tx) => {
        const row = await updateSpace(tx, space, { deleted_at: null }, now());
        await recordSpaceEvent(tx, caller, "space_restored", row);
        return row;
      });
      return ok(presentSpace(restored, role, urls));
    },

    async moveSpace({ body, caller }, { space, organizationRole, role }) {
      assertSpaceNotDeleted(space);
      assertMoveChangesSomething(body);
      const parentId = body.parent === undefined ? space.parent_id : body.parent;
      const moved = await transaction(async (tx) => {
        await lockContentTree(tx, [space.organization_id]);
        if (parentId !== space.parent_id)
          await authorizeCreateUnder(tx, space.organization_id, organizationRole, parentId);
        await updateSpace(tx, space, { parent_id: parentId }, now());
        await placeAmongSiblings(
          tx,
          space.organization_id,
          parentId,
          { kind: "space", id: space.id },
          body.position,
        );
        await settleInheritedLevels(tx, space.organization_id);
        const row = await getSpace(tx, space.id);
        await recordSpaceEvent(tx, caller, "space_moved", row, {
          ...(space.parent_id !== null && { previousParent: space.parent_id }),
        });
        return row;
      });
      return ok(presentSpace(moved, role, urls));
    },

    async transferSpace({ body, caller }, { space }) {
      const target = body.organization;
      if (target === space.organization_id)
        throw conflict("The space already belongs to that organization.", "already_done");
      const targetRole = await membershipIn(db, target, caller.user.id);
      if (targetRole === undefined) throw notFound("Organization");
      authorize(canCreateContent(targetRole), "create content in the target organization");
      if (space.deleted_at !== null)
        throw preconditionFailed("A deleted space cannot be transferred; restore it first.", "space_deleted");
      const moved = await transaction(async (tx) => {
        const row = await transferSpace(tx, space, target, now());
        // Both organizations hear of it: the one it left, the one it joined.
        for (const organizationId of [space.organization_id, target])
          await recordEvent(tx, services, {
            organizationId,
            type: "space_transferred",
            actorId: caller.user.id,
            spaceId: space.id,
            data: { ...spaceEventData(row), from: space.organization_id, to: target },
          });
        return row;
      });
      return ok(presentSpace(moved, roleOnContent(targetRole, moved.default_level), urls));
    },
  };
}
