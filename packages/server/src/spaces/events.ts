import type { Schema } from "@quire/api-types";
import type { SpaceTable } from "../db/schema.js";
import type { EventData } from "../events/record.js";

/** What every event about a space says of it. */
export function spaceEventData(space: SpaceTable): EventData<"space_created"> {
  return {
    space: space.id,
    title: space.title,
    visibility: space.visibility as Schema<"ContentVisibility">,
    ...(space.parent_id !== null && { parent: space.parent_id }),
  };
}

/** The fields of `Space` that differ between two rows of one space, by their API names. */
export function changedSpaceFields(before: SpaceTable, after: SpaceTable): string[] {
  const fields = {
    title: "title",
    emoji: "emoji",
    edit_mode: "editMode",
    default_level: "defaultLevel",
    language: "language",
  } as const;
  return Object.entries(fields).flatMap(([column, name]) =>
    before[column as keyof typeof fields] === after[column as keyof typeof fields] ? [] : [name],
  );
}
