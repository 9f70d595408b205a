import type { components } from "./generated/openapi.js";

/** Why a request failed (`error.type`), as the contract lists it. */
export type ErrorType = components["schemas"]["ErrorType"];

/**
 * The generic type of each error status the API answers: what an error without a more specific
 * reason says. The server writes it; the client gives it to failures that carry no error body.
 */
export const STATUS_TYPES: Readonly<Record<number, ErrorType>> = {
  400: "bad_request",
  401: "unauthorized",
  403: "forbidden",
  404: "not_found",
  405: "method_not_allowed",
  409: "conflict",
  410: "gone",
  412: "precondition_failed",
  413: "payload_too_large",
  415: "unsupported_media_type",
  422: "unprocessable",
  429: "rate_limited",
  500: "internal",
  501: "not_implemented",
  503: "unavailable",
};

/** The generic type of `status`; one outside the table is still the client's (4xx) or the server's fault. */
export const errorTypeOf = (status: number): ErrorType =>
  STATUS_TYPES[status] ?? (status < 500 ? "bad_request" : "internal");
