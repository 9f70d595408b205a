import { roleOnRow } from "../access.js";
import type { AccessMap, AreaHandlers } from "../area.js";
import type { Caller } from "../auth/caller.js";
import { transferCollection } from "../commands/transfer-content.js";
import {
  assertMoveChangesSomething,
  assertNotIntoItself,
  authorizeCreateUnder,
  defaultLevelColumns,
  endPosition,
  lockContentTree,
  placeAmongSiblings,
  settleInheritedLevels,
} from "../content/tree.js";
import type { Transaction } from "../db/database.js";
import type { CollectionTable } from "../db/schema.js";
import { type EventData, recordEvent } from "../events/record.js";
import { conflict, notFound } from "../http/errors.js";
import { presentPage } from "../http/paging.js";
import { created, noContent, ok } from "../http/results.js";
import { canTransferOut, membershipIn, onOrganization } from "../organizations/index.js";
import { authorize, canCreateContent, roleOnContent } from "../policy.js";
import type { Services } from "../services.js";
import { listSpacesInCollection, presentSpaceFor } from "../spaces/index.js";
import { onCollection } from "./access.js";
import { changedCollectionFields, collectionEventData } from "./events.js";
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

  /** Records an event about `collection` in its organization, caused by `caller`. */
  const recordCollectionEvent = <
    T extends "collection_created" | "collection_updated" | "collection_moved" | "collection_deleted",
  >(
    tx: Transaction,
    caller: Caller,
    type: T,
    collection: CollectionTable,
    extra?: Omit<EventData<T>, keyof EventData<"collection_created">>,
  ) =>
    recordEvent(tx, services, {
      organizationId: collection.organization_id,
      type,
      actorId: caller.user.id,
      data: { ...collectionEventData(collection), ...extra } as EventData<T>,
    });

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

    async createCollection({ body = {}, caller }, { organization, role }) {
      const parentId = body.parent ?? null;
      const collection = await transaction(async (tx) => {
        await lockContentTree(tx, [organization.id]);
        await authorizeCreateUnder(tx, organization.id, role, parentId);
        const inserted = await insertCollection(tx, {
          id: ids.next(),
          organization_id: organization.id,
          parent_id: parentId,
          title: body.title ?? "Untitled",
          description: null,
          default_level: "read",
          default_level_inherited: 0,
          position: await endPosition(tx, organization.id, parentId),
          created_at: now(),
          updated_at: now(),
        });
        await recordCollectionEvent(tx, caller, "collection_created", inserted);
        return inserted;
      });
      return created(presentCollection(collection, roleOnContent(role, collection.default_level), urls));
    },

    async getCollectionById(_input, { collection, role }) {
      return ok(presentCollection(collection, role, urls));
    },

    async updateCollectionById({ body, caller }, { collection, organizationRole }) {
      const changes = {
        ...(body.title !== undefined && { title: body.title }),
        ...(body.description !== undefined && { description: body.description }),
        ...defaultLevelColumns(body.defaultLevel),
      };
      const updated = await transaction(async (tx) => {
        const levelChanges = body.defaultLevel !== undefined;
        if (levelChanges) await lockContentTree(tx, [collection.organization_id]);
        let row = await updateCollection(tx, collection, changes, now());
        if (levelChanges) {
          // The collection's own level, and those of the content inheriting it.
          await settleInheritedLevels(tx, collection.organization_id);
          row = await getCollection(tx, collection.id);
        }
        const fields = changedCollectionFields(collection, row);
        if (fields.length > 0)
          await recordCollectionEvent(tx, caller, "collection_updated", row, { changes: fields });
        return row;
      });
      return ok(presentCollection(updated, roleOnContent(organizationRole, updated.default_level), urls));
    },

    async deleteCollectionById({ caller }, { collection }) {
      await transaction(async (tx) => {
        await deleteCollection(tx, collection);
        await recordCollectionEvent(tx, caller, "collection_deleted", collection);
      });
      return noContent();
    },

    async listSpacesInCollectionById({ path, query, caller }, { organizationRole }) {
      const args = { collectionId: path.collectionId, userId: caller.user.id };
      const page = await listSpacesInCollection(db, args, query);
      return ok(presentPage(page, presentSpaceFor(organizationRole, urls)));
    },

    async moveCollection({ body, caller }, { collection, role, organizationRole }) {
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
        await settleInheritedLevels(tx, org);
        await recordCollectionEvent(
          tx,
          caller,
          "collection_moved",
          { ...collection, parent_id: parentId },
          { ...(collection.parent_id !== null && { previousParent: collection.parent_id }) },
        );
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
      await transaction(async (tx) => {
        await transferCollection(tx, collection, target, now());
        // Both organizations hear of it: the one it left, the one it joined.
        const data = {
          ...collectionEventData({ ...collection, parent_id: null }),
          from: collection.organization_id,
          to: target,
        };
        for (const organizationId of [collection.organization_id, target])
          await recordEvent(tx, services, {
            organizationId,
            type: "collection_transferred",
            actorId: caller.user.id,
            data,
          });
      });
      const moved = await getCollection(db, collection.id);
      return ok(presentCollection(moved, roleOnContent(targetRole, moved.default_level), urls));
    },
  };
}
