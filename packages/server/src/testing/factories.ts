import { insertCollection } from "../collections/store.js";
import { endPosition } from "../content/tree.js";
import type { CollectionTable, SpaceTable } from "../db/schema.js";
import { insertSpace } from "../spaces/store.js";
import type { TestApp } from "./harness.js";

type Required<T, K extends keyof T> = Partial<T> & Pick<T, K>;

/** A collection stored directly, with defaults for every field not given. */
export async function buildCollection(
  t: TestApp,
  fields: Required<CollectionTable, "organization_id">,
): Promise<CollectionTable> {
  const now = t.clock.now().toISOString();
  const parentId = fields.parent_id ?? null;
  return insertCollection(t.db, {
    id: t.ids.next(),
    parent_id: parentId,
    title: "A collection",
    description: null,
    default_level: "read",
    position: await endPosition(t.db, fields.organization_id, parentId),
    created_at: now,
    updated_at: now,
    ...fields,
  });
}

/** A space stored directly, with defaults for every field not given. */
export async function buildSpace(
  t: TestApp,
  fields: Required<SpaceTable, "organization_id">,
): Promise<SpaceTable> {
  const parentId = fields.parent_id ?? null;
  const space = await insertSpace(t.db, t, {
    parent_id: parentId,
    title: "A space",
    emoji: "",
    visibility: "private",
    edit_mode: "live",
    default_level: "read",
    position: await endPosition(t.db, fields.organization_id, parentId),
    ...fields,
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
