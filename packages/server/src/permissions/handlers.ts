import type { Schema } from "@quire/api-types";
import type { ContentAccess } from "../access.js";
import { collectionForCaller } from "../collections/index.js";
import type { Role } from "../db/schema.js";
import { badRequest, notFound } from "../http/errors.js";
import { presentPage } from "../http/paging.js";
import { noContent, ok } from "../http/results.js";
import { authorize } from "../policy.js";
import type { AreaHandlers, Services } from "../services.js";
import { spaceForCaller } from "../spaces/index.js";
import { nonMembers, unknownIds } from "../teams/index.js";
import { canGrant, canViewGrants } from "./policy.js";
import { presentAccessFor, presentTeamGrantFor, presentUserGrantFor } from "./presenter.js";
import { type GrantedContent, listAccess, listTeamGrants, listUserGrants, setGrants } from "./store.js";

type Access = Omit<ContentAccess<unknown>, "row"> & { content: GrantedContent };

const VIEW = "see who has access to this content";
const GRANT = "give this role on this content";

/**
 * The handlers of one kind of content (spaces or collections): the same six operations, each given
 * the content and the caller's access by `lookup`.
 */
function grantHandlers(services: Services, lookup: (id: string, userId: string) => Promise<Access>) {
  const { db, urls, now } = services;

  /** Gives or removes roles, after checking the grantees and the caller's right to give `role`. */
  const grant = async (
    access: Access,
    grantees: { users: readonly string[]; teams: readonly string[] },
    role: Role | null,
  ) => {
    authorize(canGrant(access.role, role), GRANT);
    const { organizationId } = access.content;
    const strangers = [
      ...(await nonMembers(db, organizationId, grantees.users)),
      ...(await unknownIds(db, organizationId, "teams", grantees.teams)),
    ];
    if (strangers.length > 0) throw notFound(`User or team ${strangers.join(", ")}`);
    await db.transaction().execute((tx) => setGrants(tx, access.content, grantees, role, now()));
  };

  const viewable = async (id: string, userId: string) => {
    const access = await lookup(id, userId);
    authorize(canViewGrants(access.organizationRole), VIEW);
    return access;
  };

  return {
    async invite(id: string, userId: string, body: Schema<"InviteUsersAndTeams">) {
      const access = await lookup(id, userId);
      const grantees = { users: [...new Set(body.users ?? [])], teams: [...new Set(body.teams ?? [])] };
      if (grantees.users.length + grantees.teams.length === 0)
        throw badRequest("Give at least one user or team.");
      await grant(access, grantees, body.role);
      return noContent();
    },

    async listUsers(id: string, userId: string, query: { page?: string; limit?: number }) {
      const { content } = await viewable(id, userId);
      const page = await listUserGrants(db, { contentId: content.id }, query);
      return ok(presentPage(page, presentUserGrantFor(urls)));
    },

    async listTeams(id: string, userId: string, query: { page?: string; limit?: number }) {
      const { content, organizationRole } = await viewable(id, userId);
      const page = await listTeamGrants(db, { contentId: content.id, callerId: userId }, query);
      return ok(presentPage(page, presentTeamGrantFor(organizationRole)));
    },

    async update(
      id: string,
      userId: string,
      grantee: { user: string } | { team: string },
      body: Schema<"UpdateContentPermissionRequest">,
    ) {
      const access = await lookup(id, userId);
      const grantees =
        "user" in grantee ? { users: [grantee.user], teams: [] } : { users: [], teams: [grantee.team] };
      if (body.role === undefined) {
        authorize(canGrant(access.role, null), GRANT);
        return noContent();
      }
      await grant(access, grantees, body.role);
      return noContent();
    },

    async listAccess(id: string, userId: string, query: { page?: string; limit?: number; role?: Role }) {
      const { content } = await viewable(id, userId);
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

export function permissionHandlers(
  services: Services,
): AreaHandlers<
  | "inviteToSpace"
  | "listUserPermissionsInSpace"
  | "listTeamPermissionsInSpace"
  | "updateUserPermissionInSpace"
  | "updateTeamPermissionInSpace"
  | "listPermissionsAggregateInSpace"
  | "inviteToCollection"
  | "listUserPermissionsInCollection"
  | "listTeamPermissionsInCollection"
  | "updateUserPermissionInCollection"
  | "updateTeamPermissionInCollection"
  | "listPermissionsAggregateInCollection"
> {
  const { db, clock } = services;
  const spaces = grantHandlers(services, async (id, userId) => {
    const { space, ...access } = await spaceForCaller(db, id, userId, clock.now());
    const content: GrantedContent = {
      kind: "space",
      id: space.id,
      organizationId: space.organization_id,
      parentId: space.parent_id,
      defaultLevel: space.default_level,
    };
    return { ...access, content };
  });
  const collections = grantHandlers(services, async (id, userId) => {
    const { collection, ...access } = await collectionForCaller(db, id, userId);
    const content: GrantedContent = {
      kind: "collection",
      id: collection.id,
      organizationId: collection.organization_id,
      parentId: collection.parent_id,
      defaultLevel: collection.default_level,
    };
    return { ...access, content };
  });

  return {
    inviteToSpace: ({ path, body, caller }) => spaces.invite(path.spaceId, caller.user.id, body),
    listUserPermissionsInSpace: ({ path, query, caller }) =>
      spaces.listUsers(path.spaceId, caller.user.id, query),
    listTeamPermissionsInSpace: ({ path, query, caller }) =>
      spaces.listTeams(path.spaceId, caller.user.id, query),
    updateUserPermissionInSpace: ({ path, body, caller }) =>
      spaces.update(path.spaceId, caller.user.id, { user: path.userId }, body),
    updateTeamPermissionInSpace: ({ path, body, caller }) =>
      spaces.update(path.spaceId, caller.user.id, { team: path.teamId }, body),
    listPermissionsAggregateInSpace: ({ path, query, caller }) =>
      spaces.listAccess(path.spaceId, caller.user.id, query),
    inviteToCollection: ({ path, body, caller }) =>
      collections.invite(path.collectionId, caller.user.id, body),
    listUserPermissionsInCollection: ({ path, query, caller }) =>
      collections.listUsers(path.collectionId, caller.user.id, query),
    listTeamPermissionsInCollection: ({ path, query, caller }) =>
      collections.listTeams(path.collectionId, caller.user.id, query),
    updateUserPermissionInCollection: ({ path, body, caller }) =>
      collections.update(path.collectionId, caller.user.id, { user: path.userId }, body),
    updateTeamPermissionInCollection: ({ path, body, caller }) =>
      collections.update(path.collectionId, caller.user.id, { team: path.teamId }, body),
    listPermissionsAggregateInCollection: ({ path, query, caller }) =>
      collections.listAccess(path.collectionId, caller.user.id, query),
  };
}
