import type { Handler, OperationId } from "@quire/api-types";
import type { Router } from "express";
import type { Caller } from "./auth/caller.js";
import { ApiError } from "./http/errors.js";
import type { AreaHandlers, Services } from "./services.js";

/**
 * One resource area of the contract (a file of `spec/`): the handlers of the operations it
 * implements and, until they are written, the ids of those that still answer 501. Each area folder
 * exports one; `areas.ts` lists them, and the compiler checks that together they cover the contract.
 */
export interface Area<Implemented extends OperationId, Pending extends OperationId> {
  name: string;
  handlers: (services: Services) => AreaHandlers<Implemented>;
  pending: readonly Pending[];
  /**
   * What the area serves outside the contract (images, metadata documents, published pages): no
   * bearer token, no contract checks. Express routes on `router`, mounted at the server's root.
   */
  routes?: (router: Router, services: Services) => void;
}

export function defineArea<
  Implemented extends OperationId = never,
  Pending extends OperationId = never,
>(area: {
  name: string;
  handlers?: (services: Services) => AreaHandlers<Implemented>;
  pending?: readonly Pending[];
  routes?: (router: Router, services: Services) => void;
}): Area<Implemented, Pending> {
  return {
    name: area.name,
    handlers: area.handlers ?? (() => ({}) as AreaHandlers<Implemented>),
    pending: area.pending ?? [],
    ...(area.routes && { routes: area.routes }),
  };
}

/** The handler of an operation a later change implements: 501 with the standard error body. */
export function notImplemented(id: OperationId): Handler<OperationId, Caller> {
  return () => {
    throw new ApiError(501, `The operation ${id} is not implemented yet.`);
  };
}
