import { AsyncLocalStorage } from "node:async_hooks";

/** What the server knows of the request a piece of work runs for, beyond its caller. */
export interface RequestOrigin {
  /** Id of the API token the request was authenticated with; absent before or without one. */
  tokenId?: string;
  /** The client's network address, as the socket gives it (the server trusts no proxy header). */
  address?: string;
}

const current = new AsyncLocalStorage<RequestOrigin>();

/**
 * Runs `work` as part of a request from `origin`: what it records (events) says where it came from,
 * without every function between the dispatcher and `recordEvent` passing it on.
 */
export const withRequestOrigin = <T>(origin: RequestOrigin, work: () => T): T => current.run(origin, work);

/** Runs `work` outside any request, as background work is, whoever started it. */
export const outsideRequests = <T>(work: () => T): T => current.exit(work);

/** The origin of the request this code runs for; undefined outside a request (jobs, the command line). */
export const requestOrigin = (): RequestOrigin | undefined => current.getStore();
