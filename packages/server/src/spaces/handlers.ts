import type { AccessMap, AreaHandlers } from "../area.js";
import { transferSpace } from "../commands/transfer-content.js";
import {
  assertMoveChangesSomething,
  authorizeCreateUnder,
  endPosition,
  lockContentTree,
  placeAmongSiblings,
} from "../content/tree.js";
import { conflict, notFound, preconditionFailed } from "../http/errors.js";
import { presentPage } from "../http/paging.js";
import { created, noContent, ok } from "../http/results.js";
import { canTransferOut, membershipIn, onOrganization } from "../organizations/index.js";
import { authorize, canCreateContent, roleOnContent } from "../policy.js";
import type { Services } from "../services.js";
import { onSpace } from "./access.js";
import { assertSpaceNotDeleted, canManageSpace } from "./policy.js";
import { presentSpace, presentSpaceFor } from "./presenter.js";
import { getSpace, insertSpace, listSpacesInOrganization, updateSpace } from "./store.js";

const SPACE_TITLE_MAX = 50;

/** Cuts a title to `max` characters without splitting an emoji or another multi-unit character. */
function truncateTitle(title: string, max: number): string {
  const characters = [...new Intl.Segmenter().segment(title)].map((s) => s.segment);
  let result = "";
  for (const character of characters) {
    if (result.length + character.length > max) break;
    result += character;
  }
  return result;
}

const manages = (action: string) => onSpace(action, ({ role }) => canManageSpace(role));

export const spaceAccess = {
  listSpacesInOrganizationById: onOrganization("list its spaces"),
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
  const { db, urls, now, transaction } = services;

  return {
    async listSpacesInOrganizationById({ path, query, caller }, { role }) {
      const args = { organizationId: path.organizationId, userId: caller.user.id, role };
      const page = await listSpacesInOrganization(db, args, query);
      return ok(presentPage(page, presentSpaceFor(role, urls)));
    },

    async createSpace({ body }, { organization, role }) {
      const parentId = body.parent ?? null;
      const space = await transaction(async (tx) => {
        await lockContentTree(tx, [organization.id]);
        await authorizeCreateUnder(tx, organization.id, role, parentId);
        return insertSpace(tx, services, {
          organization_id: organization.id,
          parent_id: parentId,
          title: body.title ?? "Untitled",
          emoji: body.emoji ?? "",
          visibility: "private",
          edit_mode: body.editMode ?? "live",
          default_level: "read",
          position: await endPosition(tx, organization.id, parentId),
        });
      });
      return created(presentSpaceFor(role, urls)(space));
    },

    async getSpaceById(_input, { space, role }) {
      return ok(presentSpace(space, role, urls));
    },

    async updateSpaceById({ body }, member) {
      assertSpaceNotDeleted(member.space);
      const changes = {
        ...(body.title !== undefined && { title: body.title }),
        ...(body.emoji !== undefined && { emoji: body.emoji }),
        ...(body.editMode !== undefined && { edit_mode: body.editMode }),
        ...(body.defaultLevel !== undefined && { default_level: body.defaultLevel }),
      };
      const updated = await updateSpace(db, member.space, changes, now());
      return ok(presentSpaceFor(member.organizationRole, urls)(updated));
    },

    async deleteSpaceById(_input, { space }) {
      // Deleting again keeps the first deletion time, so the restore window is not extended.
      if (space.deleted_at === null) await updateSpace(db, space, { deleted_at: now() }, now());
      return noContent();
    },

    async duplicateSpace(_input, { space, organizationRole }) {
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
          position: await endPosition(tx, space.organization_id, space.parent_id),
        });
        await placeAmongSiblings(
          tx,
          space.organization_id,
          space.parent_id,
          { kind: "space", id: duplicate.id },
          { after: { type: "space", space: space.id } },
        );
        return getSpace(tx, duplicate.id);
      });
      return created(presentSpaceFor(organizationRole, urls)(copy));
    },

    async restoreSpace(_input, { space, role }) {
      if (space.deleted_at === null) throw conflict("The space is not deleted.", "already_done");
      const restored = await updateSpace(db, space, { deleted_at: null }, now());
      return ok(presentSpace(restored, role, urls));
    },

    async moveSpace({ body }, { space, organizationRole, role }) {
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
        return getSpace(tx, space.id);
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
      const moved = await transaction((tx) => transferSpace(tx, space, target, now()));
      return ok(presentSpace(moved, roleOnContent(targetRole, moved.default_level), urls));
    },
  };
}
