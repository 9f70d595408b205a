import {
  assertMoveChangesSomething,
  authorizeCreateUnder,
  endPosition,
  placeAmongSiblings,
} from "../content/tree.js";
import { conflict, notFound, preconditionFailed } from "../http/errors.js";
import { presentPage } from "../http/paging.js";
import { canCreateContent } from "../organizations/policy.js";
import { organizationForMember, roleIn } from "../organizations/store.js";
import { authorize, contentRole } from "../policy.js";
import type { AreaHandlers, Services } from "../services.js";
import { canManageSpace } from "./policy.js";
import { presentOneSpace, presentSpaces } from "./presenter.js";
import {
  getSpace,
  insertSpace,
  listSpacesInOrganization,
  type MemberSpace,
  spaceForMember,
  updateSpace,
} from "./store.js";

const SPACE_TITLE_MAX = 50;

function assertNotDeleted({ space }: MemberSpace): void {
  if (space.deleted_at !== null) throw conflict("The space is deleted; restore it first.");
}

export function spaceHandlers(
  services: Services,
): AreaHandlers<
  | "listSpacesInOrganizationById"
  | "createSpace"
  | "getSpaceById"
  | "updateSpaceById"
  | "deleteSpaceById"
  | "duplicateSpace"
  | "restoreSpace"
  | "moveSpace"
  | "transferSpace"
> {
  const { db, urls, clock } = services;
  const now = () => clock.now().toISOString();
  const memberSpace = (spaceId: string, userId: string) => spaceForMember(db, spaceId, userId, clock.now());
  /** The space, once the caller's role on it allows managing it (403 otherwise). */
  const manageableSpace = async (spaceId: string, userId: string, action: string) => {
    const member = await memberSpace(spaceId, userId);
    authorize(canManageSpace(member.role), action);
    return member;
  };
  const created = async (space: MemberSpace["space"], role: MemberSpace["role"]) => {
    const presented = await presentOneSpace(db, space, role, urls);
    return { status: 201 as const, headers: { location: presented.urls.location }, body: presented };
  };

  return {
    async listSpacesInOrganizationById({ path, query, caller }) {
      const { organization, role } = await organizationForMember(db, path.organizationId, caller.user.id);
      const page = await listSpacesInOrganization(db, organization.id, query);
      return { status: 200, body: presentPage(page, await presentSpaces(db, page.rows, role, urls)) };
    },

    async createSpace({ path, body, caller }) {
      const { organization, role } = await organizationForMember(db, path.organizationId, caller.user.id);
      const parentId = body.parent ?? null;
      await authorizeCreateUnder(db, organization.id, role, parentId);
      const space = await db.transaction().execute(async (tx) =>
        insertSpace(tx, services, {
          organization_id: organization.id,
          parent_id: parentId,
          title: body.title ?? "Untitled",
          emoji: body.emoji ?? "",
          visibility: "private",
          edit_mode: body.editMode ?? "live",
          default_level: "read",
          position: await endPosition(tx, organization.id, parentId),
        }),
      );
      return created(space, contentRole(role, space.default_level));
    },

    async getSpaceById({ path, caller }) {
      const { space, role } = await memberSpace(path.spaceId, caller.user.id);
      return { status: 200, body: await presentOneSpace(db, space, role, urls) };
    },

    async updateSpaceById({ path, body, caller }) {
      const member = await manageableSpace(path.spaceId, caller.user.id, "update this space");
      assertNotDeleted(member);
      const updated = await updateSpace(db, member.space.id, {
        ...(body.title !== undefined && { title: body.title }),
        ...(body.emoji !== undefined && { emoji: body.emoji }),
        ...(body.editMode !== undefined && { edit_mode: body.editMode }),
        ...(body.defaultLevel !== undefined && { default_level: body.defaultLevel }),
        updated_at: now(),
      });
      const role = contentRole(member.organizationRole, updated.default_level);
      return { status: 200, body: await presentOneSpace(db, updated, role, urls) };
    },

    async deleteSpaceById({ path, caller }) {
      const { space } = await manageableSpace(path.spaceId, caller.user.id, "delete this space");
      // Deleting again keeps the first deletion time, so the restore window is not extended.
      if (space.deleted_at === null)
        await updateSpace(db, space.id, { deleted_at: now(), updated_at: now() });
      return { status: 204, body: undefined };
    },

    async duplicateSpace({ path, caller }) {
      const member = await memberSpace(path.spaceId, caller.user.id);
      assertNotDeleted(member);
      const { space, organizationRole } = member;
      await authorizeCreateUnder(db, space.organization_id, organizationRole, space.parent_id);
      const copy = await db.transaction().execute(async (tx) => {
        const duplicate = await insertSpace(tx, services, {
          ...space,
          title: `${space.title} (copy)`.slice(0, SPACE_TITLE_MAX),
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
      return created(copy, contentRole(organizationRole, copy.default_level));
    },

    async restoreSpace({ path, caller }) {
      const { space, role } = await manageableSpace(path.spaceId, caller.user.id, "restore this space");
      if (space.deleted_at === null) throw conflict("The space is not deleted.");
      const restored = await updateSpace(db, space.id, { deleted_at: null, updated_at: now() });
      return { status: 200, body: await presentOneSpace(db, restored, role, urls) };
    },

    async moveSpace({ path, body, caller }) {
      const member = await manageableSpace(path.spaceId, caller.user.id, "move this space");
      assertNotDeleted(member);
      const { space, organizationRole } = member;
      assertMoveChangesSomething(body);
      const parentId = body.parent === undefined ? space.parent_id : body.parent;
      if (parentId !== space.parent_id)
        await authorizeCreateUnder(db, space.organization_id, organizationRole, parentId);
      const moved = await db.transaction().execute(async (tx) => {
        await updateSpace(tx, space.id, { parent_id: parentId, updated_at: now() });
        await placeAmongSiblings(
          tx,
          space.organization_id,
          parentId,
          { kind: "space", id: space.id },
          body.position,
        );
        return getSpace(tx, space.id);
      });
      return { status: 200, body: await presentOneSpace(db, moved, member.role, urls) };
    },

    async transferSpace({ path, body, caller }) {
      const { space } = await manageableSpace(path.spaceId, caller.user.id, "transfer this space");
      const target = body.organization;
      if (target === space.organization_id) throw conflict("The space already belongs to that organization.");
      const targetRole = await roleIn(db, target, caller.user.id);
      if (targetRole === undefined) throw notFound("Organization");
      authorize(canCreateContent(targetRole), "create content in the target organization");
      if (space.deleted_at !== null)
        throw preconditionFailed("A deleted space cannot be transferred; restore it first.");
      const moved = await db.transaction().execute(async (tx) =>
        updateSpace(tx, space.id, {
          organization_id: target,
          parent_id: null,
          position: await endPosition(tx, target, null),
          updated_at: now(),
        }),
      );
      return {
        status: 200,
        body: await presentOneSpace(db, moved, contentRole(targetRole, moved.default_level), urls),
      };
    },
  };
}
