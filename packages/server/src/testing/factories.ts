import { insertCollection } from "../collections/store.js";
import { endPosition } from "../content/tree.js";
import type { CollectionTable, SpaceTable } from "../db/schema.js";
import { insertSpace } from "../spaces/store.js";
import type { TestApp } from "./harness.js";

/**
 * The organization of something built under `parentId`, or of `fields`, or a new one when neither
 * names one: factories build their parents when not given.
 */
async function organizationOf(
  t: TestApp,
  fields: { organization_id?: string; parent_id?: string | null },
): Promise<string> {
  if (fields.organization_id) return fields.organization_id;
  if (fields.parent_id) {
    const parent = await t.db
      .selectFrom("collections")
      .select("organization_id")
      .where("id", "=", fields.parent_id)
      .executeTakeFirstOrThrow();
    return parent.organization_id;
  }
  return (await t.organization()).organizationId;
}

/**
 * A collection stored directly, with defaults for every field not given; in the organization of its
 * parent, or in a new organization when given neither.
 */
export async function buildCollection(
  t: TestApp,
  fields: Partial<CollectionTable> = {},
): Promise<CollectionTable> {
  const now = t.clock.now().toISOString();
  const parentId = fields.parent_id ?? null;
  const organizationId = await organizationOf(t, fields);
  return insertCollection(t.db, {
    id: t.ids.next(),
    parent_id: parentId,
    title: "A collection",
    description: null,
    default_level: "read",
    default_level_inherited: 0,
    position: await endPosition(t.db, organizationId, parentId),
    created_at: now,
    updated_at: now,
    ...fields,
    organization_id: organizationId,
  });
}

/**
 * A space stored directly, with defaults for every field not given; in the organization of its parent
 * collection, or in a new organization when given neither.
 */
export async function buildSpace(t: TestApp, fields: Partial<SpaceTable> = {}): Promise<SpaceTable> {
  const parentId = fields.parent_id ?? null;
  const organizationId = await organizationOf(t, fields);
  const space = await insertSpace(t.db, t, {
    parent_id: parentId,
    title: "A space",
    emoji: "",
    visibility: "private",
    edit_mode: "live",
    default_level: "read",
    position: await endPosition(t.db, organizationId, parentId),
    ...fields,
    organization_id: organizationId,
  });
  if (fields.deleted_at) {
    await t.db
      .updateTable("spaces")
      .set({ deleted_at: fields.deleted_at })
      .where("id", "=", space.id)
      .execute();
    return { ...space, deleted_at: fields.deleted_at };
  }
  return space;
}

/** A space inside a new collection, both in `organization_id` or a new organization. */
export async function buildNestedSpace(
  t: TestApp,
  fields: Partial<SpaceTable> = {},
): Promise<{ collection: CollectionTable; space: SpaceTable }> {
  const collection = await buildCollection(
    t,
    fields.organization_id ? { organization_id: fields.organization_id } : {},
  );
  const space = await buildSpace(t, {
    ...fields,
    organization_id: collection.organization_id,
    parent_id: collection.id,
  });
  return { collection, space };
}
