import { QuireApiError } from "@quire/client";
import { type MessageKey, t } from "../i18n/index.js";

/** The contract's error body: `{ error: { code, type, message } }`. */
interface ErrorBody {
  error: { code?: number; type: string; message: string };
}

const isErrorBody = (value: unknown): value is ErrorBody =>
  typeof value === "object" &&
  value !== null &&
  "error" in value &&
  typeof value.error === "object" &&
  value.error !== null &&
  "type" in value.error &&
  typeof value.error.type === "string" &&
  "message" in value.error &&
  typeof value.error.message === "string";

/** Types with a sentence of their own; any other shows the server's message with its type. */
const KNOWN: Record<string, MessageKey> = {
  unauthorized: "error.unauthorized",
  forbidden: "error.forbidden",
  not_found: "error.not_found",
  rate_limited: "error.rate_limited",
};

/** The contract's `error.type` of a failed call, if the server answered with one. */
export function errorType(error: unknown): string | undefined {
  const body = error instanceof QuireApiError ? error.body : error;
  return isErrorBody(body) ? body.error.type : undefined;
}

/**
 * Whether a write was refused because someone else changed the item first: a 412, whatever reason
 * its type names (`precondition_failed`, `etag_mismatch`: the contract says to read an unknown
 * reason as its status's generic type).
 */
export function changedElsewhere(error: unknown): boolean {
  const body = error instanceof QuireApiError ? error.body : error;
  return isErrorBody(body) && (body.error.code === 412 || body.error.type === "precondition_failed");
}

/**
 * What to tell the person about a failed call: openapi-react-query throws the parsed body, `allItems`
 * a `QuireApiError`, fetch a `TypeError` when the network fails. Never raw JSON.
 */
export function errorMessage(error: unknown): string {
  const body = error instanceof QuireApiError ? error.body : error;
  if (isErrorBody(body)) {
    const known = KNOWN[body.error.type];
    return known ? t(known) : t("error.unknown", { type: body.error.type, message: body.error.message });
  }
  if (error instanceof TypeError) return t("error.network");
  return t("error.unknown", { type: "internal", message: error instanceof Error ? error.message : "" });
}
