import type { Schema } from "@quire/api-types";
import { Ajv, type ErrorObject } from "ajv";
import { badRequest } from "../http/errors.js";
import type { Claims } from "./conditions.js";

export type AdaptiveJsonSchema = Schema<"SiteAdaptiveJsonSchema">;
type ClaimSchema = Schema<"VisitorClaimSchema">;

/** The schema of a site that never set one: no attributes (behaviour §4.6). */
export const DEFAULT_ADAPTIVE_SCHEMA: AdaptiveJsonSchema = {
  $schema: "http://json-schema.org/draft-07/schema#",
  type: "object",
  properties: {},
  additionalProperties: false,
};

/** Attribute names are read as `visitor.claims.<name>`, so they must be identifiers. */
const ATTRIBUTE_NAME = /^[A-Za-z_$][A-Za-z0-9_$]*$/;
/** GitBook's reserved attribute for claims passed without a signature. */
const UNSIGNED = "unsigned";

function checkAttributes(properties: Record<string, ClaimSchema>, at: string): void {
  for (const [name, attribute] of Object.entries(properties)) {
    const where = `${at}.${name}`;
    if (!ATTRIBUTE_NAME.test(name) || name in Object.prototype)
      throw badRequest(`${where}: an attribute name must be an identifier, and not one every object has.`);
    if (attribute.type === "object") checkAttributes(attribute.properties, where);
  }
}

function describe(error: ErrorObject | undefined): string {
  return `claims${error?.instancePath.replaceAll("/", ".") ?? ""} ${error?.message ?? "is invalid"}.`;
}

/**
 * A JSON Schema compiled by Ajv (draft-07, strict) and then dropped, since Ajv keeps every schema
 * it compiled (and refuses a second one with the same `$id`).
 */
function compiled(schema: object) {
  const ajv = new Ajv({ strict: true, allErrors: false });
  return ajv.compile(schema);
}

/**
 * What the contract's schema (the subset of JSON Schema GitBook accepts: booleans, strings with
 * their values, numbers, arrays of those, objects of attributes, the reserved `unsigned` object)
 * cannot say: names are identifiers, `unsigned` is an object, and Ajv compiles the whole. 400
 * otherwise.
 */
export function checkAdaptiveSchema(schema: AdaptiveJsonSchema): void {
  const properties = schema.properties as Record<string, ClaimSchema>;
  checkAttributes(properties, "jsonSchema.properties");
  if (properties[UNSIGNED] !== undefined && properties[UNSIGNED].type !== "object")
    throw badRequest(
      `jsonSchema.properties.${UNSIGNED} is reserved for unsigned claims and must be an object.`,
    );
  try {
    compiled(schema);
  } catch (err) {
    throw badRequest(`jsonSchema is not a valid JSON Schema: ${(err as Error).message}`);
  }
}

/**
 * Whether claims fit a site's schema, for whoever verifies a visitor's token: the first problem,
 * or undefined when they fit.
 */
export function claimsProblem(schema: object, claims: Claims): string | undefined {
  const validate = compiled(schema);
  return validate(claims) ? undefined : describe(validate.errors?.[0]);
}
