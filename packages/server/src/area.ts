import type { IncomingMessage, ServerResponse } from "node:http";
import type { Handler, HandlerInput, Handlers, OperationId, OperationResult } from "@quire/api-types";
import type { Router } from "express";
import type { Caller } from "./auth/caller.js";
import type { BlobStore } from "./blobs/blobs.js";
import type { EventDeliverySettings } from "./events/delivery-settings.js";
import { ApiError } from "./http/errors.js";
import type { AnyTask } from "./jobs/runner.js";
import type { Fetcher } from "./net/fetch.js";
import type { GitSettings } from "./net/git.js";
import { authorize } from "./policy.js";
import type { Services } from "./services.js";
import type { Urls } from "./urls.js";

/**
 * What an operation requires of its caller, declared beside its handler and checked by the dispatcher
 * before the handler runs: the caller's standing on the resource the path names (the resource and
 * their role there), 404 when the resource is hidden from them, 403 when their role falls short.
 * The handler receives the standing, so the check costs no statement of its own.
 */
export interface AccessRule<Standing> {
  /** What it requires, in words: "space: update this space", "any signed-in user". */
  readonly requires: string;
  standing(services: Services, caller: Caller, path: PathParameters): Promise<Standing> | Standing;
}

/** An operation's path parameters, validated by the dispatcher. */
export type PathParameters = Readonly<Record<string, string>>;

/** The access rule of each operation of an area. */
export type AccessMap = { readonly [Id in OperationId]?: AccessRule<unknown> };

type StandingOf<Rule> = Rule extends AccessRule<infer Standing> ? Standing : never;

/** The handlers of one area: each receives the validated input and the standing its access rule loaded. */
export type AreaHandlers<Access extends AccessMap> = {
  [Id in keyof Access & OperationId]: (
    input: HandlerInput<Id, Caller>,
    standing: StandingOf<Access[Id]>,
  ) => Promise<OperationResult<Id>> | OperationResult<Id>;
};

/** Handlers as the dispatcher calls them: the access check done, the standing passed on. */
export type CheckedHandlers<Ids extends OperationId> = Pick<Handlers<Caller>, Ids>;

/** The rule of an operation any signed-in user may call (about themselves, or to join or create). */
export const anyCaller: AccessRule<undefined> = { requires: "any signed-in user", standing: () => undefined };

/**
 * The one way an access rule is made: `load` finds the resource the path names with the caller's role
 * there (404 when hidden from them), and `allows` is the area's policy on that role, refused with 403
 * naming `action`.
 */
export function accessRule<Standing>(
  resource: string,
  action: string,
  load: (services: Services, caller: Caller, path: PathParameters) => Promise<Standing>,
  allows: (standing: Standing) => boolean,
): AccessRule<Standing> {
  return {
    requires: `${resource}: ${action}`,
    async standing(services, caller, path) {
      const standing = await load(services, caller, path);
      authorize(allows(standing), action);
      return standing;
    },
  };
}

/** A path parameter an access rule reads; an operation without it is a wrong declaration. */
export function pathParameter(path: PathParameters, name: string): string {
  const value = path[name];
  if (value === undefined)
    throw new Error(`The access rule reads the path parameter ${name}, which this operation lacks`);
  return value;
}

/**
 * One resource area of the contract (a file of `spec/`): the handlers of the operations it
 * implements and, until they are written, the ids of those that still answer 501. Each area folder
 * exports one; `areas.ts` lists them, and the compiler checks that together they cover the contract.
 */
export interface Area<Implemented extends OperationId, Pending extends OperationId> {
  name: string;
  /** Each operation's handler behind its access check, as the dispatcher calls it. */
  handlers: (services: Services) => CheckedHandlers<Implemented>;
  /** What each implemented operation requires of its caller. */
  access: AccessMap;
  pending: readonly Pending[];
  /**
   * What the area serves outside the contract (images, metadata documents, published pages): no
   * bearer token, no contract checks. Express routes on `router`, mounted at the server's root.
   */
  routes?: (router: Router, services: Services) => void;
  /**
   * Answers from memory, before the Express app and its routes, what the area keeps ready (a
   * published page as rendered): true once answered, false to let the routes answer.
   */
  kept?: (services: Services) => KeptAnswers;
  /** The area's background tasks; `areas.ts` collects every area's for the job runner. */
  tasks: (deps: TaskDeps) => readonly AnyTask[];
}

/** What background tasks are built with (a job has no request, hence no `Services`). */
export interface TaskDeps {
  /** Fetches URLs under the server's network policy. */
  fetcher: Fetcher;
  /** Git Sync's repositories, under the same policy. */
  git: GitSettings;
  /** Decrypts what is stored encrypted (`QUIRE_SECRET_KEY`). */
  secretKey: string;
  /** Where file bytes are stored. */
  blobs: BlobStore;
  /** How events go out to webhooks and integrations. */
  eventDelivery: EventDeliverySettings;
  /** The server's public URLs, for what tasks write absolute (integration events name users so). */
  urls: Urls;
}

/** See `Area.kept`. */
export type KeptAnswers = (req: IncomingMessage, res: ServerResponse) => boolean | Promise<boolean>;

interface AreaParts<Pending extends OperationId> {
  name: string;
  pending?: readonly Pending[];
  routes?: (router: Router, services: Services) => void;
  kept?: (services: Services) => KeptAnswers;
  tasks?: (deps: TaskDeps) => readonly AnyTask[];
}

export function defineArea<
  Access extends AccessMap = Record<never, never>,
  Pending extends OperationId = never,
>(
  area: AreaParts<Pending> & {
    access?: Access;
    handlers?: (services: Services) => AreaHandlers<Access>;
  },
): Area<keyof Access & OperationId, Pending> {
  const access: AccessMap = area.access ?? {};
  return {
    name: area.name,
    access,
    handlers: (services) => {
      const checked: Partial<Record<OperationId, Handler<OperationId, Caller>>> = {};
      for (const [id, handle] of Object.entries(area.handlers?.(services) ?? {})) {
        const rule = access[id as OperationId];
        if (!rule) throw new Error(`${area.name} handles ${id} but declares no access rule for it`);
        const run = handle as (input: HandlerInput<OperationId, Caller>, standing: unknown) => never;
        checked[id as OperationId] = async (input) =>
          run(input, await rule.standing(services, input.caller, input.path as PathParameters));
      }
      return checked as CheckedHandlers<keyof Access & OperationId>;
    },
    pending: area.pending ?? [],
    tasks: area.tasks ?? (() => []),
    ...(area.routes && { routes: area.routes }),
    ...(area.kept && { kept: area.kept }),
  };
}

/** The handler of an operation a later change implements: 501 with the standard error body. */
export function notImplemented(id: OperationId): Handler<OperationId, Caller> {
  return () => {
    throw new ApiError(501, `The operation ${id} is not implemented yet.`);
  };
}
