import type { Handler, Handlers } from "@quire/api-types";
import type { Caller } from "./auth/caller.js";
import { collectionHandlers } from "./collections/handlers.js";
import { ApiError } from "./http/errors.js";
import { organizationHandlers } from "./organizations/handlers.js";
import { type PendingOperation, pendingOperations } from "./pending.js";
import type { Services } from "./services.js";
import { spaceHandlers } from "./spaces/handlers.js";
import { userHandlers } from "./users/handlers.js";

/** True when no operation is both implemented and pending. */
type Disjoint<A, B> = [Extract<A, B>] extends [never] ? true : false;

type PendingHandlers = { [Id in PendingOperation]: Handler<Id, Caller> };

function notImplemented(ids: readonly PendingOperation[]): PendingHandlers {
  const entries = ids.map((id) => [
    id,
    () => {
      throw new ApiError(501, `The operation ${id} is not implemented yet.`);
    },
  ]);
  return Object.fromEntries(entries) as PendingHandlers;
}

/** Every operation of the contract: a missing, extra or mistyped handler fails to compile here. */
export function createHandlers(services: Services): Handlers<Caller> {
  const implemented = {
    ...userHandlers(services),
    ...organizationHandlers(services),
    ...collectionHandlers(services),
    ...spaceHandlers(services),
  };
  const implementedIsNotPending: Disjoint<keyof typeof implemented, PendingOperation> = true;
  return implementedIsNotPending && { ...implemented, ...notImplemented(pendingOperations) };
}
