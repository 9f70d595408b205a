import {
  assertMoveChangesSomething,
  authorizeCreateUnder,
  endPosition,
  placeAmongSiblings,
} from "../content/tree.js";
import { badRequest, conflict, notFound } from "../http/errors.js";
import { presentPage } from "../http/paging.js";
import { canCreateContent } from "../organizations/policy.js";
import { organizationForMember, roleIn } from "../organizations/store.js";
import { authorize, contentRole } from "../policy.js";
import type { AreaHandlers, Services } from "../services.js";
import { presentSpaces } from "../spaces/presenter.js";
import { listSpacesInCollection } from "../spaces/store.js";
import { canManageCollection } from "./policy.js";
import { presentCollection } from "./presenter.js";
import {
  collectionForMember,
  getCollection,
  insertCollection,
  listCollections,
  subtreeCollectionIds,
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
  const { db, urls, clock, ids } = services;
  const now = () => clock.now().toISOString();
  /** The collection, once the caller's role on it allows managing it (403 otherwise). */
  const manageableCollection = async (collectionId: string, userId: string, action: string) => {
    const member = await collectionForMember(db, collectionId, userId);
    authorize(canManageCollection(member.role), action);
    return member;
  };

  return {
    async listCollectionsInOrganizationById({ path, query, caller }) {
      const { organization, role } = await organizationForMember(db, path.organizationId, caller.user.id);
      const page = await listCollections(db, organization.id, query.nested ?? true, query);
      return {
        status: 200,
        body: presentPage(page, (c) => presentCollection(c, contentRole(role, c.default_level), urls)),
      };
    },

    async createCollection({ path, body, caller }) {
      const { organization, role } = await organizationForMember(db, path.organizationId, caller.user.id);
      const parentId = body.parent ?? null;
      await authorizeCreateUnder(db, organization.id, role, parentId);
      const created = await db.transaction().execute(async (tx) =>
        insertCollection(tx, {
          id: ids.next(),
          organization_id: organization.id,
          parent_id: parentId,
          title: body.title ?? "Untitled",
          description: null,
          default_level: "read",
          position: await endPosition(tx, organization.id, parentId),
          created_at: now(),
          updated_at: now(),
        }),
      );
      const presented = presentCollection(created, contentRole(role, created.default_level), urls);
      return { status: 201, headers: { location: presented.urls.location }, body: presented };
    },

    async getCollectionById({ path, caller }) {
      const { collection, role } = await collectionForMember(db, path.collectionId, caller.user.id);
      return { status: 200, body: presentCollection(collection, role, urls) };
    },

    async updateCollectionById({ path, body, caller }) {
      const { collection, organizationRole } = await manageableCollection(
        path.collectionId,
        caller.user.id,
        "update this collection",
      );
      const updated = await updateCollection(db, collection.id, {
        ...(body.title !== undefined && { title: body.title }),
        ...(body.description !== undefined && { description: body.description }),
        ...(body.defaultLevel !== undefined && { default_level: body.defaultLevel }),
        updated_at: now(),
      });
      return {
        status: 200,
        body: presentCollection(updated, contentRole(organizationRole, updated.default_level), urls),
      };
    },

    async deleteCollectionById({ path, caller }) {
      const { collection } = await manageableCollection(
        path.collectionId,
        caller.user.id,
        "delete this collection",
      );
      // Nothing inside is lost: the collection's children move up to its parent, after its siblings.
      await db.transaction().execute(async (tx) => {
        const org = collection.organization_id;
        let position = await endPosition(tx, org, collection.parent_id);
        for (const table of ["collections", "spaces"] as const) {
          const children = await tx
            .selectFrom(table)
            .select("id")
            .where("parent_id", "=", collection.id)
            .orderBy("position")
            .execute();
          for (const child of children) {
            await tx
              .updateTable(table)
              .set({ parent_id: collection.parent_id, position: position++ })
              .where("id", "=", child.id)
              .execute();
          }
        }
        await tx.deleteFrom("collections").where("id", "=", collection.id).execute();
      });
      return { status: 204, body: undefined };
    },

    async listSpacesInCollectionById({ path, query, caller }) {
      const { collection, organizationRole } = await collectionForMember(
        db,
        path.collectionId,
        caller.user.id,
      );
      const page = await listSpacesInCollection(db, collection.id, query);
      return {
        status: 200,
        body: presentPage(page, await presentSpaces(db, page.rows, organizationRole, urls)),
      };
    },

    async moveCollection({ path, body, caller }) {
      const { collection, role, organizationRole } = await manageableCollection(
        path.collectionId,
        caller.user.id,
        "move this collection",
      );
      const org = collection.organization_id;
      const parentId = body.parent === undefined ? collection.parent_id : body.parent;
      assertMoveChangesSomething(body);
      if (parentId !== null && (await subtreeCollectionIds(db, org, collection.id)).includes(parentId)) {
        throw badRequest("A collection cannot be moved into itself or one of its descendants.");
      }
      if (parentId !== collection.parent_id) await authorizeCreateUnder(db, org, organizationRole, parentId);
      await db.transaction().execute(async (tx) => {
        await tx
          .updateTable("collections")
          .set({ parent_id: parentId, updated_at: now() })
          .where("id", "=", collection.id)
          .execute();
        await placeAmongSiblings(tx, org, parentId, { kind: "collection", id: collection.id }, body.position);
      });
      const moved = await getCollection(db, collection.id);
      return { status: 200, body: presentCollection(moved, role, urls) };
    },

    async transferCollection({ path, body, caller }) {
      const { collection } = await manageableCollection(
        path.collectionId,
        caller.user.id,
        "transfer this collection",
      );
      const target = body.organization;
      if (target === collection.organization_id) {
        throw conflict("The collection already belongs to that organization.");
      }
      const targetRole = await roleIn(db, target, caller.user.id);
      if (targetRole === undefined) throw notFound("Organization");
      authorize(canCreateContent(targetRole), "create content in the target organization");
      // The whole subtree moves: nested collections and every space in them, deleted ones included.
      await db.transaction().execute(async (tx) => {
        const subtree = await subtreeCollectionIds(tx, collection.organization_id, collection.id);
        const position = await endPosition(tx, target, null);
        await tx
          .updateTable("collections")
          .set({ organization_id: target })
          .where("id", "in", subtree)
          .execute();
        await tx
          .updateTable("spaces")
          .set({ organization_id: target })
          .where("parent_id", "in", subtree)
          .execute();
        await tx
          .updateTable("collections")
          .set({ parent_id: null, position, updated_at: now() })
          .where("id", "=", collection.id)
          .execute();
      });
      const moved = await getCollection(db, collection.id);
      return {
        status: 200,
        body: presentCollection(moved, contentRole(targetRole, moved.default_level), urls),
      };
    },
  };
}
