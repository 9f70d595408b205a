import { errorTypeOf, type paths, type Schema } from "@quire/api-types";
import createFetchClient, { type Client, type Middleware } from "openapi-fetch";

// The contract's types (its schemas, GitBook's document), for the client's users.
export type * from "@quire/api-types";

export type QuireClient = Client<paths>;

export interface ClientOptions {
  /** Where the server is, e.g. `http://localhost:8080` (the `/v1` prefix is part of each path). */
  baseUrl: string;
  /** An API token; sent as `Authorization: Bearer <token>`. */
  token: string;
  /** A fetch implementation; the global one by default. */
  fetch?: typeof globalThis.fetch;
}

/** A typed client for every operation of the contract: `client.GET("/v1/spaces/{spaceId}", …)`. */
export function createClient({ baseUrl, token, fetch }: ClientOptions): QuireClient {
  const client = createFetchClient<paths>({ baseUrl: baseUrl.replace(/\/+$/, ""), ...(fetch && { fetch }) });
  const bearer: Middleware = {
    onRequest({ request }) {
      request.headers.set("Authorization", `Bearer ${token}`);
      return request;
    },
  };
  client.use(bearer);
  return client;
}

type ErrorBody = Schema<"Error">;

/** A failed call: the HTTP status and the server's `{ error: { code, type, message } }` body. */
export class QuireApiError extends Error {
  readonly status: number;
  readonly body: ErrorBody;

  constructor(status: number, body: ErrorBody) {
    super(`${status}: ${body.error.message}`);
    this.name = "QuireApiError";
    this.status = status;
    this.body = body;
  }
}

const isErrorBody = (value: unknown): value is ErrorBody =>
  typeof value === "object" && value !== null && "error" in value && typeof value.error === "object";

/** A call's result as openapi-fetch returns it. */
export interface FetchResult<Data> {
  data?: Data;
  error?: unknown;
  response: Response;
}

/** The data of a successful call; throws `QuireApiError` for a failed one. */
export async function unwrap<Data>(call: Promise<FetchResult<Data>> | FetchResult<Data>): Promise<Data> {
  const { data, error, response } = await call;
  if (!response.ok) {
    const body = isErrorBody(error)
      ? error
      : {
          error: { code: response.status, type: errorTypeOf(response.status), message: response.statusText },
        };
    throw new QuireApiError(response.status, body);
  }
  return data as Data;
}

/** One page of any list operation. */
export interface ListPage<Item> {
  items: Item[];
  count: number;
  next?: { page: string };
}

/**
 * Every page of a list operation, following `next.page` until the last one:
 * `for await (const page of allPages((page) => client.GET(path, { params: { query: { page } } })))`.
 */
export async function* allPages<Item>(
  fetchPage: (page: string | undefined) => Promise<FetchResult<ListPage<Item>>>,
): AsyncGenerator<ListPage<Item>, void, undefined> {
  let cursor: string | undefined;
  do {
    const page = await unwrap(fetchPage(cursor));
    yield page;
    cursor = page.next?.page;
  } while (cursor !== undefined);
}

/** Every item of a list operation, across all its pages. */
export async function* allItems<Item>(
  fetchPage: (page: string | undefined) => Promise<FetchResult<ListPage<Item>>>,
): AsyncGenerator<Item, void, undefined> {
  for await (const page of allPages(fetchPage)) yield* page.items;
}
