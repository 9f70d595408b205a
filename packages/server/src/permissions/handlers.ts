import type { Schema } from "@quire/api-types";
import type { ContentAccess } from "../access.js";
import type { AccessMap, AreaHandlers } from "../area.js";
import { onCollection } from "../collections/index.js";
import type { Role } from "../db/schema.js";
import { badRequest, notFound } from "../http/errors.js";
import { presentPage } from "../http/paging.js";
import { noContent, ok } from "../http/results.js";
import { authorize } from "../policy.js";
import type { Services } from "../services.js";
import { onSpace } from "../spaces/index.js";
import { nonMembers, unknownIds } from "../teams/index.js";
import { canGrant, canViewGrants } from "./policy.js";
import { presentAccessFor, presentTeamGrantFor, presentUserGrantFor } from "./presenter.js";
import { type GrantedContent, listAccess, listTeamGrants, listUserGrants, setGrants } from "./store.js";

/** The caller's roles on a space or collection, as its access rule loaded them. */
type Standing = Omit<ContentAccess<unknown>, "row">;
type Access = Standing & { content: GrantedContent };
type ContentRow = { id: string; organization_id: string; parent_id: string | null; default_level: Role };

const VIEW = "see who has access to this content";
const GRANT = "give this role on this content";

const viewsGrants = ({ organizationRole }: Standing) => canViewGrants(organizationRole);
// Giving some role there; whether the caller may give the role the body names is the handler's check.
const grantsSome = ({ role }: Standing) => canGrant(role, null);

export const permissionAccess = {
  inviteToSpace: onSpace(GRANT, grantsSome),
  listUserPermissionsInSpace: onSpace(VIEW, viewsGrants),
  listTeamPermissionsInSpace: onSpace(VIEW, viewsGrants),
  updateUserPermissionInSpace: onSpace(GRANT, grantsSome),
  updateTeamPermissionInSpace: onSpace(GRANT, grantsSome),
  listPermissionsAggregateInSpace: onSpace(VIEW, viewsGrants),
  inviteToCollection: onCollection(GRANT, grantsSome),
  listUserPermissionsInCollection: onCollection(VIEW, viewsGrants),
  listTeamPermissionsInCollection: onCollection(VIEW, viewsGrants),
  updateUserPermissionInCollection: onCollection(GRANT, grantsSome),
  updateTeamPermissionInCollection: onCollection(GRANT, grantsSome),
  listPermissionsAggregateInCollection: onCollection(VIEW, viewsGrants),
} satisfies AccessMap;

function grantedContent(kind: GrantedContent["kind"], row: ContentRow): GrantedContent {
  return {
    kind,
    id: row.id,
    organizationId: row.organization_id,
    parentId: row.parent_id,
    defaultLevel: row.default_level,
  };
}

const ofSpace = ({ space, ...standing }: Standing & { space: ContentRow }): Access => ({
  ...standing,
  content: grantedContent("space", space),
});

const ofCollection = ({ collection, ...standing }: Standing & { collection: ContentRow }): Access => ({
  ...standing,
  content: grantedContent("collection", collection),
});

/** The six operations on the grants of one space or collection, whose access rule passed. */
function grantHandlers(services: Services) {
  const { db, urls, transaction } = services;

  /** Gives or removes roles, after checking the caller's right to give `role` and the grantees. */
  const grant = async (
    access: Access,
    actorId: string,
    grantees: { users: readonly string[]; teams: readonly string[] },
    role: Role | null,
  ) => {
    // The access rule allowed giving some role; none above the caller's own.
    authorize(canGrant(access.role, role), GRANT);
    const { organizationId } = access.content;
    const strangers = [
      ...(await nonMembers(db, organizationId, grantees.users)),
      ...(await unknownIds(db, organizationId, "teams", grantees.teams)),
    ];
    if (strangers.length > 0) throw notFound(`User or team ${strangers.join(", ")}`);
    await transaction((tx) => setGrants(tx, services, actorId, access.content, grantees, role));
  };

  return {
    async invite(access: Access, actorId: string, body: Schema<"InviteUsersAndTeams">) {
      const grantees = { users: [...new Set(body.users ?? [])], teams: [...new Set(body.teams ?? [])] };
      if (grantees.users.length + grantees.teams.length === 0)
        throw badRequest("Give at least one user or team.");
      await grant(access, actorId, grantees, body.role);
      return noContent();
    },

    async listUsers({ content }: Access, query: { page?: string; limit?: number }) {
      const page = await listUserGrants(db, { contentId: content.id }, query);
      return ok(presentPage(page, presentUserGrantFor(urls)));
    },

    async listTeams(
      { content, organizationRole }: Access,
      userId: string,
      query: { page?: string; limit?: number },
    ) {
      const page = await listTeamGrants(db, { contentId: content.id, callerId: userId }, query);
      return ok(presentPage(page, presentTeamGrantFor(organizationRole)));
    },

    async update(
      access: Access,
      actorId: string,
      grantee: { user: string } | { team: string },
      body: Schema<"UpdateContentPermissionRequest">,
    ) {
      // No role given changes nothing: giving some role, which the access rule checked, is enough.
      if (body.role === undefined) return noContent();
      const grantees =
        "user" in grantee ? { users: [grantee.user], teams: [] } : { users: [], teams: [grantee.team] };
      await grant(access, actorId, grantees, body.role);
      return noContent();
    },

    async listAccess({ content }: Access, query: { page?: string; limit?: number; role?: Role }) {
      const page = await listAccess(
        db,
        {
          organizationId: content.organizationId,
          contentId: content.id,
          parentId: content.parentId,
          defaultLevel: content.defaultLevel,
          role: query.role ?? null,
        },
        query,
      );
      return ok(presentPage(page, presentAccessFor(urls)));
    },
  };
}

export function permissionHandlers(services: Services): AreaHandlers<typeof permissionAccess> {
  const grants = grantHandlers(services);

  return {
    inviteToSpace: ({ body, caller }, standing) => grants.invite(ofSpace(standing), caller.user.id, body),
    listUserPermissionsInSpace: ({ query }, standing) => grants.listUsers(ofSpace(standing), query),
    listTeamPermissionsInSpace: ({ query, caller }, standing) =>
      grants.listTeams(ofSpace(standing), caller.user.id, query),
    updateUserPermissionInSpace: ({ path, body, caller }, standing) =>
      grants.update(ofSpace(standing), caller.user.id, { user: path.userId }, body),
    updateTeamPermissionInSpace: ({ path, body, caller }, standing) =>
      grants.update(ofSpace(standing), caller.user.id, { team: path.teamId }, body),
    listPermissionsAggregateInSpace: ({ query }, standing) => grants.listAccess(ofSpace(standing), query),
    inviteToCollection: ({ body, caller }, standing) =>
      grants.invite(ofCollection(standing), caller.user.id, body),
    listUserPermissionsInCollection: ({ query }, standing) => grants.listUsers(ofCollection(standing), query),
    listTeamPermissionsInCollection: ({ query, caller }, standing) =>
      grants.listTeams(ofCollection(standing), caller.user.id, query),
    updateUserPermissionInCollection: ({ path, body, caller }, standing) =>
      grants.update(ofCollection(standing), caller.user.id, { user: path.userId }, body),
    updateTeamPermissionInCollection: ({ path, body, caller }, standing) =>
      grants.update(ofCollection(standing), caller.user.id, { team: path.teamId }, body),
    listPermissionsAggregateInCollection: ({ query }, standing) =>
      grants.listAccess(ofCollection(standing), query),
  };
}
