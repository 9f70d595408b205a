import type { Schema } from "@quire/api-types";
import { SqliteAdapter } from "kysely";
import { callerMembership, listsAllContent } from "../access.js";
import { fromJson, toJson } from "../db/codecs.js";
import type { Db } from "../db/database.js";
import { memberLookup } from "../db/member-lookup.js";
import { preparedRead } from "../db/prepared.js";
import { keysetList } from "../http/paging.js";
import type { OrganizationRole } from "../policy.js";
import type { CustomFieldTable } from "./tables.js";
import { keepOptions, optionsOf } from "./values.js";

type Value = Schema<"CustomFieldValueData">;

export interface MemberCustomField {
  field: CustomFieldTable;
  /** The caller's role in the field's organization. */
  role: OrganizationRole;
}

const fieldWithMembership = preparedRead(
  (db, args: { organizationId: string; name: string; userId: string }) =>
    db
      .selectFrom("custom_fields")
      .selectAll()
      .select(callerMembership(args.userId, args.organizationId).as("caller_membership"))
      .where("organization_id", "=", args.organizationId)
      .where("name", "=", args.name),
);

/**
 * The field with the caller's role in its organization, in one statement; 404 when missing or in
 * an organization the caller is not in, alike, so that names in other organizations reveal nothing.
 */
export async function customFieldForCaller(
  db: Db,
  args: { organizationId: string; name: string; userId: string },
): Promise<MemberCustomField> {
  const [found] = await fieldWithMembership(db, args);
  const { row: field, role } = memberLookup(found, "Custom field");
  return { field, role };
}

/** The fields of an organization, oldest first, to a member who is not a guest (no rows otherwise). */
export const listCustomFields = keysetList(
  (db, args: { organizationId: string; userId: string }) =>
    db
      .selectFrom("custom_fields")
      .selectAll()
      .select(callerMembership(args.userId, args.organizationId).as("caller_membership"))
      .where("organization_id", "=", args.organizationId)
      .where(listsAllContent(args.userId, args.organizationId)),
  { created_at: "string", id: "string" },
);

export async function customFieldExists(db: Db, organizationId: string, name: string): Promise<boolean> {
  const found = await db
    .selectFrom("custom_fields")
    .select("id")
    .where("organization_id", "=", organizationId)
    .where("name", "=", name)
    .executeTakeFirst();
  return found !== undefined;
}

export async function insertCustomField(db: Db, row: CustomFieldTable): Promise<CustomFieldTable> {
  await db.insertInto("custom_fields").values(row).execute();
  return row;
}

type FieldChanges = Partial<Pick<CustomFieldTable, "title" | "description" | "placeholder" | "options">>;

/**
 * Applies `changes` and moves `updated_at` (an empty change writes nothing). Options no longer
 * offered leave every space's value (see `keepOptions`). Call inside a transaction: the update
 * locks the field on PostgreSQL, so values being set from the old options wait for it, and it waits
 * for values being set now.
 */
export async function updateCustomField(
  tx: Db,
  field: CustomFieldTable,
  changes: FieldChanges,
  now: string,
): Promise<CustomFieldTable> {
  if (Object.keys(changes).length === 0) return field;
  const updated = await tx
    .updateTable("custom_fields")
    .set({ ...changes, updated_at: now })
    .where("id", "=", field.id)
    .returningAll()
    .executeTakeFirstOrThrow();
  if (changes.options === undefined) return updated;
  // Every stored value is checked, not only those of options `field` had: it may be stale by now.
  const options = optionsOf(updated);
  const stored = await tx
    .selectFrom("space_custom_field_values")
    .selectAll()
    .where("custom_field_id", "=", field.id)
    .execute();
  for (const row of stored) {
    const kept = keepOptions(field, fromJson(row.value), options);
    if (kept === undefined)
      await tx
        .deleteFrom("space_custom_field_values")
        .where("space_id", "=", row.space_id)
        .where("custom_field_id", "=", field.id)
        .execute();
    else if (toJson(kept) !== row.value)
      await tx
        .updateTable("space_custom_field_values")
        .set({ value: toJson(kept) })
        .where("space_id", "=", row.space_id)
        .where("custom_field_id", "=", field.id)
        .execute();
  }
  return updated;
}

/** Deletes the field; its values on every space go with it (foreign key cascade). */
export async function deleteCustomField(db: Db, field: CustomFieldTable): Promise<void> {
  await db.deleteFrom("custom_fields").where("id", "=", field.id).execute();
}

/** Every field of an organization, oldest first, with the space's value when it has one. */
export const customFieldsOfSpace = preparedRead((db, args: { organizationId: string; spaceId: string }) =>
  db
    .selectFrom("custom_fields")
    .leftJoin("space_custom_field_values as v", (join) =>
      join.onRef("v.custom_field_id", "=", "custom_fields.id").on("v.space_id", "=", args.spaceId),
    )
    .selectAll("custom_fields")
    .select("v.value")
    .where("custom_fields.organization_id", "=", args.organizationId)
    .orderBy("custom_fields.created_at")
    .orderBy("custom_fields.id"),
);

/**
 * The fields of an organization with these names. Call inside the transaction that sets values
 * from them: on PostgreSQL they stay locked until it ends, so their options cannot change between
 * the check and the write; SQLite runs one write transaction at a time anyway.
 */
export function customFieldsNamed(
  tx: Db,
  organizationId: string,
  names: readonly string[],
): Promise<CustomFieldTable[]> {
  if (names.length === 0) return Promise.resolve([]);
  const query = tx
    .selectFrom("custom_fields")
    .selectAll()
    .where("organization_id", "=", organizationId)
    .where("name", "in", names);
  return (tx.getExecutor().adapter instanceof SqliteAdapter ? query : query.forShare()).execute();
}

/** Sets (or with null, clears) values of a space's fields, already checked against their types. */
export async function setSpaceValues(
  tx: Db,
  spaceId: string,
  values: readonly { field: CustomFieldTable; value: Value | null }[],
): Promise<void> {
  const cleared = values.filter((v) => v.value === null).map((v) => v.field.id);
  const set = values.flatMap(({ field, value }) =>
    value === null ? [] : [{ space_id: spaceId, custom_field_id: field.id, value: toJson(value) }],
  );
  if (cleared.length > 0)
    await tx
      .deleteFrom("space_custom_field_values")
      .where("space_id", "=", spaceId)
      .where("custom_field_id", "in", cleared)
      .execute();
  if (set.length > 0)
    await tx
      .insertInto("space_custom_field_values")
      .values(set)
      .onConflict((oc) =>
        oc
          .columns(["space_id", "custom_field_id"])
          .doUpdateSet((eb) => ({ value: eb.ref("excluded.value") })),
      )
      .execute();
}

/** Drops every custom field value of these spaces (they left the organization that defines the fields). */
export async function dropSpaceFieldValues(db: Db, spaceIds: readonly string[]): Promise<void> {
  await db.deleteFrom("space_custom_field_values").where("space_id", "in", spaceIds).execute();
}
