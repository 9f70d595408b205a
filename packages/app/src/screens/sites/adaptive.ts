import type { Schema } from "@quire/client";
import type { MessageKey } from "../../i18n/index.js";

type JsonSchema = Schema<"SiteAdaptiveJsonSchema">;

/** What is wrong with a visitor attributes schema as typed: a key and where (`claims.plan`…). */
export interface SchemaProblem {
  key: MessageKey;
  at: string;
}

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === "object" && value !== null && !Array.isArray(value);

const NAME = /^[A-Za-z_$][A-Za-z0-9_$]*$/;
const PRIMITIVES = ["boolean", "string", "number"];

function claimProblems(value: unknown, at: string, kinds: readonly string[]): SchemaProblem[] {
  if (!isRecord(value) || typeof value.type !== "string" || !kinds.includes(value.type))
    return [{ key: "sites.adaptive.badType", at }];
  if (typeof value.description !== "string") return [{ key: "sites.adaptive.noDescription", at }];
  if (value.type === "string" && value.enum !== undefined) {
    if (!Array.isArray(value.enum) || !value.enum.every((item) => typeof item === "string"))
      return [{ key: "sites.adaptive.badEnum", at }];
  }
  if (value.type === "array") return claimProblems(value.items, `${at}.items`, PRIMITIVES);
  if (value.type === "object") {
    if (value.additionalProperties !== false) return [{ key: "sites.adaptive.closedObject", at }];
    return propertiesProblems(value.properties, at);
  }
  return [];
}

function propertiesProblems(properties: unknown, at: string): SchemaProblem[] {
  if (!isRecord(properties)) return [{ key: "sites.adaptive.noProperties", at }];
  return Object.entries(properties).flatMap(([name, claim]) =>
    NAME.test(name)
      ? claimProblems(claim, `${at}.${name}`, [...PRIMITIVES, "array", "object"])
      : [{ key: "sites.adaptive.badName" as const, at: `${at}.${name}` }],
  );
}

/** What the contract would refuse in `value`, read as a site's visitor attributes JSON Schema. */
export function schemaProblems(value: unknown): SchemaProblem[] {
  if (!isRecord(value) || value.type !== "object") return [{ key: "sites.adaptive.notObject", at: "claims" }];
  if (typeof value.additionalProperties !== "boolean")
    return [{ key: "sites.adaptive.noAdditional", at: "claims" }];
  return propertiesProblems(value.properties, "claims");
}

/** The typed schema in `text`, or why there is none (text that is not JSON, or not such a schema). */
export function parseSchema(text: string): { schema: JsonSchema } | { problems: SchemaProblem[] } {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return { problems: [{ key: "sites.adaptive.notJson", at: "claims" }] };
  }
  const problems = schemaProblems(value);
  return isAdaptiveSchema(value, problems) ? { schema: value } : { problems };
}

const isAdaptiveSchema = (value: unknown, problems: SchemaProblem[]): value is JsonSchema =>
  problems.length === 0 && isRecord(value);

/** A boolean visitor attribute the schema declares: its path under `visitor.claims`, and what it means. */
export interface BooleanClaim {
  path: string;
  description: string;
}

/**
 * The boolean attributes of a visitor attributes schema, nested ones (`unsigned.beta`) included: the
 * ones a condition tests as `== true`. Anything else in the schema is skipped, not refused.
 */
export function booleanClaims(schema: unknown, at = ""): BooleanClaim[] {
  if (!isRecord(schema) || !isRecord(schema.properties)) return [];
  return Object.entries(schema.properties).flatMap(([name, claim]): BooleanClaim[] => {
    if (!NAME.test(name) || !isRecord(claim)) return [];
    const path = `${at}${name}`;
    if (claim.type === "object") return booleanClaims(claim, `${path}.`);
    if (claim.type !== "boolean") return [];
    return [{ path, description: typeof claim.description === "string" ? claim.description : "" }];
  });
}
