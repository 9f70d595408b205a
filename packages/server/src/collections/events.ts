import type { CollectionTable } from "../db/schema.js";
import type { EventData } from "../events/record.js";

/** What every event about a collection says of it. */
export function collectionEventData(collection: CollectionTable): EventData<"collection_created"> {
  return {
    collection: collection.id,
    title: collection.title,
    ...(collection.parent_id !== null && { parent: collection.parent_id }),
  };
}

/** The fields of `Collection` that differ between two rows of one collection, by their API names. */
export function changedCollectionFields(before: CollectionTable, after: CollectionTable): string[] {
  const fields = { title: "title", description: "description", default_level: "defaultLevel" } as const;
  return Object.entries(fields).flatMap(([column, name]) =>
    before[column as keyof typeof fields] === after[column as keyof typeof fields] ? [] : [name],
  );
}
