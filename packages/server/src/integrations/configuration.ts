import type { Schema } from "@quire/api-types";
import { Ajv2020, type ErrorObject } from "ajv/dist/2020.js";
import { fromJson, type JsonText } from "../db/codecs.js";
import { badRequest } from "../http/errors.js";

type Property = Schema<"IntegrationConfigurationProperty">;

/**
 * The contract's `IntegrationConfigurationSchema`, whose generated type loses what `properties`
 * holds (an open object, which the generator types as having no property at all).
 */
interface ConfigurationSchema {
  /** None: a configuration with no property (GitBook leaves it optional). */
  properties?: Record<string, Property>;
  required?: string[];
}
type Configuration = Record<string, unknown>;

const ajv = new Ajv2020({ strict: true, allErrors: false, useDefaults: true });

/** The JSON Schema of one property's value; a button calls the integration back and holds none. */
function propertySchema({ type, enum: allowed, default: value }: Property): object | boolean {
  if (type === "button") return false;
  return { type, ...(allowed && { enum: allowed }), ...(value !== undefined && { default: value }) };
}

/** The JSON Schema of a configuration: only the declared properties, each of its type. */
function jsonSchemaOf(schema: ConfigurationSchema | undefined): object {
  const properties = Object.entries(schema?.properties ?? {}).map(([name, p]) => [name, propertySchema(p)]);
  return { type: "object", properties: Object.fromEntries(properties), additionalProperties: false };
}

function describe(error: ErrorObject): string {
  const at = `configuration${error.instancePath.replaceAll("/", ".")}`;
  if (error.keyword === "additionalProperties")
    return `${at} has no property "${(error.params as { additionalProperty: string }).additionalProperty}".`;
  if (error.keyword === "false schema") return `${at} is a button and takes no value.`;
  if (error.keyword === "enum")
    return `${at} must be one of: ${(error.params as { allowedValues: string[] }).allowedValues.join(", ")}.`;
  return `${at} ${error.message ?? "is invalid"}.`;
}

/**
 * `configuration` checked against the integration's schema, with the defaults of the properties it
 * leaves out; 400 naming the first property that does not fit. The schema is compiled for this call
 * and dropped: Ajv would otherwise keep every schema it has seen.
 */
export function validConfiguration(
  schema: ConfigurationSchema | undefined,
  configuration: Configuration,
): Configuration {
  const jsonSchema = jsonSchemaOf(schema);
  const validate = ajv.compile(jsonSchema);
  ajv.removeSchema(jsonSchema);
  const copy = structuredClone(configuration);
  if (!validate(copy)) throw badRequest(describe(validate.errors?.[0] as ErrorObject));
  return copy;
}

/** An installation is pending until every required property has a value. */
export function statusOf(
  schema: ConfigurationSchema | undefined,
  configuration: Configuration,
): Schema<"InstallationStatus"> {
  const missing = (schema?.required ?? []).some((name) => !Object.hasOwn(configuration, name));
  return missing ? "pending" : "active";
}

/** The levels an integration can be installed on, each with its own configuration schema. */
const LEVELS = new Set(["account", "space", "site"]);

/**
 * What the contract's schema cannot say about published configuration schemas: the levels are the
 * known ones (the contract leaves the object open, as GitBook's does), names are not those
 * every object inherits (`constructor`, `__proto__`: a configuration would seem to hold them), `enum`
 * is only on strings and not empty, each default fits its property, `required` names declared
 * properties. 400 otherwise.
 */
export function checkConfigurations(
  configurations: Schema<"IntegrationConfigurationsInput"> | undefined,
): void {
  const levels = Object.entries(configurations ?? {}) as [string, ConfigurationSchema][];
  for (const [level, schema] of levels) {
    if (!LEVELS.has(level))
      throw badRequest(`configurations.${level}: the levels are ${[...LEVELS].join(", ")}.`);
    const properties = schema.properties ?? {};
    for (const [name, property] of Object.entries(properties)) {
      const at = `configurations.${level}.properties.${name}`;
      if (name in Object.prototype) throw badRequest(`${at}: the name is reserved.`);
      if (property.enum && (property.type !== "string" || property.enum.length === 0))
        throw badRequest(`${at}: enum is only for string properties, with at least one value.`);
      const value = property.default;
      if (value === undefined) continue;
      if (property.type === "button" || typeof value !== property.type)
        throw badRequest(`${at}: the default is not a ${property.type} value.`);
      if (property.enum && !property.enum.includes(value as string))
        throw badRequest(`${at}: the default is not one of its enum values.`);
    }
    for (const name of schema.required ?? [])
      if (!Object.hasOwn(properties, name))
        throw badRequest(`configurations.${level}.required names "${name}", which is not a property.`);
  }
}

/** The schema of the organization-level configuration, from the stored `configurations`. */
export function accountSchemaOf(
  configurations: JsonText<Schema<"IntegrationConfigurations">> | null,
): ConfigurationSchema | undefined {
  return configurations === null ? undefined : fromJson(configurations).account;
}
