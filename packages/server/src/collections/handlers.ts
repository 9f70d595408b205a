import { membershipOfPage, roleOnRow } from "../access.js";
import { deleteCollection } from "../commands/delete-collection.js";
import { transferCollection } from "../commands/transfer-content.js";
import {
  assertMoveChangesSomething,
  assertNotIntoItself,
  authorizeCreateUnder,
  endPosition,
  lockContentTree,
  placeAmongSiblings,
} from "../content/tree.js";
import { conflict, notFound } from "../http/errors.js";
import { presentPage } from "../http/paging.js";
import { created, noContent, ok } from "../http/results.js";
import {
  canTransferOut,
  membershipIn,
  organizationForCaller,
  organizationRoleOf,
} from "../organizations/index.js";
import { authorize, canCreateContent, roleOnContent } from "../policy.js";
import type { AreaHandlers, Services } from "../services.js";
import { listSpacesInCollection, presentSpaceFor } from "../spaces/index.js";
import { canManageCollection } from "./policy.js";
import { presentCollection } from "./presenter.js";
import {
  collectionForCaller,
  getCollection,
  insertCollection,
  listAllCollections,
  listTopLevelCollections,
  updateCollection,
} from "./store.js";

export function collectionHandlers(
  services: Services,
): AreaHandlers<
  | "listCollectionsInOrganizationById"
  | "createCollection"
  | "getCollectionById"
  | "updateCollectionById"
  | "deleteCollectionById"
  | "listSpacesInCollectionById"
  | "moveCollection"
  | "transferCollection"
> {
  const { db, urls, ids, now } = services;
  /** The collection, once the caller's role on it allows managing it (403 otherwise). */
  const manageableCollection = async (collectionId: string, userId: string, action: string) => {
    const member = await collectionForCaller(db, collectionId, userId);
    authorize(canManageCollection(member.role), action);
    return member;
  };

  return {
    async listCollectionsInOrganizationById({ path, query, caller }) {
      const args = { organizationId: path.organizationId, userId: caller.user.id };
      const list = (query.nested ?? true) ? listAllCollections : listTopLevelCollections;
      const page = await list(db, args, query);
      const role = await membershipOfPage(page, () => organizationRoleOf(db, args));
      return ok(presentPage(page, (c) => presentCollection(c, roleOnRow(role, c), urls)));
    },

    async createCollection({ path, body, caller }) {
      const { organization, role } = await organizationForCaller(db, path.organizationId, caller.user.id);
      const parentId = body.parent ?? null;
      const collection = await db.transaction().execute(async (tx) => {
        await lockContentTree(tx, [organization.id]);
        await authorizeCreateUnder(tx, organization.id, role, parentId);
        return insertCollection(tx, {
          id: ids.next(),
          organization_id: organization.id,
          parent_id: parentId,
          title: body.title ?? "Untitled",
          description: null,
          default_level: "read",
          position: await endPosition(tx, organization.id, parentId),
          created_at: now(),
          updated_at: now(),
        });
      });
      return created(presentCollection(collection, roleOnContent(role, collection.default_level), urls));
    },

    async getCollectionById({ path, caller }) {
      const { collection, role } = await collectionForCaller(db, path.collectionId, caller.user.id);
      return ok(presentCollection(collection, role, urls));
    },

    async updateCollectionById({ path, body, caller }) {
      const { collection, organizationRole } = await manageableCollection(
        path.collectionId,
        caller.user.id,
        "update this collection",
      );
      const changes = {
        ...(body.title !== undefined && { title: body.title }),
        ...(body.description !== undefined && { description: body.description }),
        ...(body.defaultLevel !== undefined && { default_level: body.defaultLevel }),
      };
      const updated = await updateCollection(db, collection, changes, now());
      return ok(presentCollection(updated, roleOnContent(organizationRole, updated.default_level), urls));
    },

    async deleteCollectionById({ path, caller }) {
      const { collection } = await manageableCollection(
        path.collectionId,
        caller.user.id,
        "delete this collection",
      );
      await db.transaction().execute((tx) => deleteCollection(tx, collection));
      return noContent();
    },

    async listSpacesInCollectionById({ path, query, caller }) {
      const args = { collectionId: path.collectionId, userId: caller.user.id };
      const page = await listSpacesInCollection(db, args, query);
      const role = await membershipOfPage(page, async () => {
        const { organizationRole } = await collectionForCaller(db, args.collectionId, args.userId);
        return organizationRole;
      });
      return ok(presentPage(page, presentSpaceFor(role, urls)));
    },

    async moveCollection({ path, body, caller }) {
      const { collection, role, organizationRole } = await manageableCollection(
        path.collectionId,
        caller.user.id,
        "move this collection",
      );
      assertMoveChangesSomething(body);
      const org = collection.organization_id;
      const parentId = body.parent === undefined ? collection.parent_id : body.parent;
      await db.transaction().execute(async (tx) => {
        await lockContentTree(tx, [org]);
        if (parentId !== collection.parent_id) {
          await assertNotIntoItself(tx, org, collection.id, parentId);
          await authorizeCreateUnder(tx, org, organizationRole, parentId);
        }
        await tx
          .updateTable("collections")
          .set({ parent_id: parentId, updated_at: now() })
          .where("id", "=", collection.id)
          .execute();
        await placeAmongSiblings(tx, org, parentId, { kind: "collection", id: collection.id }, body.position);
      });
      return ok(presentCollection(await getCollection(db, collection.id), role, urls));
    },

    async transferCollection({ path, body, caller }) {
      const { collection, organizationRole } = await collectionForCaller(
        db,
        path.collectionId,
        caller.user.id,
      );
      authorize(canTransferOut(organizationRole), "transfer content out of this organization");
      const target = body.organization;
      if (target === collection.organization_id) {
        throw conflict("The collection already belongs to that organization.", "already_done");
      }
      const targetRole = await membershipIn(db, target, caller.user.id);
      if (targetRole === undefined) throw notFound("Organization");
      authorize(canCreateContent(targetRole), "create content in the target organization");
      await db.transaction().execute((tx) => transferCollection(tx, collection, target, now()));
      const moved = await getCollection(db, collection.id);
      return ok(presentCollection(moved, roleOnContent(targetRole, moved.default_level), urls));
    },
  };
}
