import type { Handler, OperationId } from "@quire/api-types";
import type { Router } from "express";
import type { Caller } from "./auth/caller.js";
import { ApiError } from "./http/errors.js";
import type { AnyTask } from "./jobs/runner.js";
import type { Fetcher } from "./net/fetch.js";
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
  /** The area's background tasks; `areas.ts` collects every area's for the job runner. */
  tasks: (deps: TaskDeps) => readonly AnyTask[];
}

/** What background tasks are built with (a job has no request, hence no `Services`). */
export interface TaskDeps {
  /** Fetches URLs under the server's network policy. */
  fetcher: Fetcher;
}

export function defineArea<
  Implemented extends OperationId = never,
  Pending extends OperationId = never,
>(area: {
  name: string;
  handlers?: (services: Services) => AreaHandlers<Implemented>;
  pending?: readonly Pending[];
  routes?: (router: Router, services: Services) => void;
  tasks?: (deps: TaskDeps) => readonly AnyTask[];
}): Area<Implemented, Pending> {
  return {
    name: area.name,
    handlers: area.handlers ?? (() => ({}) as AreaHandlers<Implemented>),
    pending: area.pending ?? [],
    tasks: area.tasks ?? (() => []),
    ...(area.routes && { routes: area.routes }),
  };
}

/** The handler of an operation a later change implements: 501 with the standard error body. */
export function notImplemented(id: OperationId): Handler<OperationId, Caller> {
  return () => {
    throw new ApiError(501, `The operation ${id} is not implemented yet.`);
  };
}
