import type { Schema } from "@quire/api-types";
import { fromJson, type JsonText, toJson } from "../db/codecs.js";
import { badRequest } from "../http/errors.js";
import type { CustomFieldTable } from "./tables.js";

type CustomFieldType = Schema<"CustomFieldType">;
type Value = Schema<"CustomFieldValueData">;

const isSelect = (type: CustomFieldType) => type === "select:single" || type === "select:multi";

export const optionsOf = (field: CustomFieldTable): string[] =>
  field.options === null ? [] : fromJson(field.options);

/**
 * The options a field of `type` is given, as stored: select fields need them (400 when missing),
 * other types take none. Options are what a space picks by name, so two equal ones are refused.
 */
export function checkOptions(
  type: CustomFieldType,
  options: string[] | undefined,
): JsonText<string[]> | null {
  if (!isSelect(type)) {
    if (options !== undefined) throw badRequest(`A field of type \`${type}\` takes no options.`);
    return null;
  }
  if (options === undefined) throw badRequest(`A field of type \`${type}\` needs options.`);
  return toJson(options);
}

const unique = (list: string[]) => [...new Set(list)];
const isStringList = (value: Value): value is string[] => Array.isArray(value);

/**
 * The value to store for `field`, or 400 naming the field when the value does not fit its type.
 * Lists lose their repeated entries, in the order given. Lengths the contract bounds (text up to
 * 256 characters) are checked before.
 */
export function checkValue(field: CustomFieldTable, value: Value): Value {
  const invalid = (expected: string) =>
    badRequest(`The value of the custom field \`${field.name}\` must be ${expected}.`);
  const options = optionsOf(field);
  switch (field.type) {
    case "text":
      if (typeof value !== "string") throw invalid("a string");
      return value;
    case "number":
      if (typeof value !== "number") throw invalid("a number");
      return value;
    case "boolean":
      if (typeof value !== "boolean") throw invalid("true or false");
      return value;
    case "tags":
      if (!isStringList(value) || value.includes("")) throw invalid("a list of non-empty tags");
      return unique(value);
    case "select:single":
      if (typeof value !== "string" || !options.includes(value))
        throw invalid(`one of its options (${options.join(", ")})`);
      return value;
    case "select:multi":
      if (!isStringList(value) || !value.every((v) => options.includes(v)))
        throw invalid(`a list of its options (${options.join(", ")})`);
      return unique(value);
  }
}

/**
 * A stored value once the field's options are `options`: picks that are no longer options are
 * dropped, and a single select whose pick was dropped has no value (undefined) any more.
 */
export function keepOptions(
  field: CustomFieldTable,
  value: Value,
  options: readonly string[],
): Value | undefined {
  if (field.type === "select:single") return options.includes(value as string) ? value : undefined;
  return (value as string[]).filter((v) => options.includes(v));
}
