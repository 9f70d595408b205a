import { roleOnRow } from "../access.js";
import type { AccessMap, AreaHandlers } from "../area.js";
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
import { canTransferOut, membershipIn, onOrganization } from "../organizations/index.js";
import { authorize, canCreateContent, roleOnContent } from "../policy.js";
import type { Services } from "../services.js";
import { listSpacesInCollection, presentSpaceFor } from "../spaces/index.js";
import { onCollection } from "./access.js";
import { canManageCollection } from "./policy.js";
import { presentCollection } from "./presenter.js";
import {
  deleteCollection,
  getCollection,
  insertCollection,
  listCollectionsInOrganization,
  updateCollection,
} from "./store.js";

const manages = (action: string) => onCollection(action, ({ role }) => canManageCollection(role));

export const collectionAccess = {
  listCollectionsInOrganizationById: onOrganization("list its collections"),
  // Where the collection may go (the top level or a collection) is checked against the caller's role there.
  createCollection: onOrganization("create collections"),
  getCollectionById: onCollection("read this collection"),
  updateCollectionById: manages("update this collection"),
  deleteCollectionById: manages("delete this collection"),
  listSpacesInCollectionById: onCollection("list its spaces"),
  moveCollection: manages("move this collection"),
  transferCollection: onCollection("transfer content out of this organization", ({ organizationRole }) =>
    canTransferOut(organizationRole),
  ),
} satisfies AccessMap;

export function collectionHandlers(services: Services): AreaHandlers<typeof collectionAccess> {
  const { db, urls, ids, now, transaction } = services;

  return {
    async listCollectionsInOrganizationById({ path, query, caller }, { role }) {
      const page = await listCollectionsInOrganization(
        db,
        {
          organizationId: path.organizationId,
          userId: caller.user.id,
          role,
          topLevelOnly: !(query.nested ?? true),
        },
        query,
      );
      return ok(presentPage(page, (c) => presentCollection(c, roleOnRow(role, c), urls)));
    },

    async createCollection({ body }, { organization, role }) {
      const parentId = body.parent ?? null;
      const collection = await transaction(async (tx) => {
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

    async getCollectionById(_input, { collection, role }) {
      return ok(presentCollection(collection, role, urls));
    },

    async updateCollectionById({ body }, { collection, organizationRole }) {
      const changes = {
        ...(body.title !== undefined && { title: body.title }),
        ...(body.description !== undefined && { description: body.description }),
        ...(body.defaultLevel !== undefined && { default_level: body.defaultLevel }),
      };
      const updated = await updateCollection(db, collection, changes, now());
      return ok(presentCollection(updated, roleOnContent(organizationRole, updated.default_level), urls));
    },

    async deleteCollectionById(_input, { collection }) {
      await transaction((tx) => deleteCollection(tx, collection));
      return noContent();
    },

    async listSpacesInCollectionById({ path, query, caller }, { organizationRole }) {
      const args = { collectionId: path.collectionId, userId: caller.user.id };
      const page = await listSpacesInCollection(db, args, query);
      return ok(presentPage(page, presentSpaceFor(organizationRole, urls)));
    },

    async moveCollection({ body }, { collection, role, organizationRole }) {
      assertMoveChangesSomething(body);
      const org = collection.organization_id;
      const parentId = body.parent === undefined ? collection.parent_id : body.parent;
      await transaction(async (tx) => {
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

    async transferCollection({ body, caller }, { collection }) {
      const target = body.organization;
      if (target === collection.organization_id) {
        throw conflict("The collection already belongs to that organization.", "already_done");
      }
      // The target organization is in the body: the caller must be able to create content there.
      const targetRole = await membershipIn(db, target, caller.user.id);
      if (targetRole === undefined) throw notFound("Organization");
      authorize(canCreateContent(targetRole), "create content in the target organization");
      await transaction((tx) => transferCollection(tx, collection, target, now()));
      const moved = await getCollection(db, collection.id);
      return ok(presentCollection(moved, roleOnContent(targetRole, moved.default_level), urls));
    },
  };
}
