/**
 * Types generated from the OpenAPI contract (src/generated, never edited by hand) and the handler
 * interface derived from them: one function per operationId, typed by that operation's contract.
 */
import type { components, operations, paths } from "./generated/openapi.js";

export type * from "./document.js";
export { type ErrorType, errorTypeOf, STATUS_TYPES } from "./errors.js";
export type { components, operations, paths };

/** A schema of the contract by name, e.g. `Schema<"Space">`. */
export type Schema<Name extends keyof components["schemas"]> = components["schemas"][Name];

export type OperationId = keyof operations;

type Operation<Id extends OperationId> = operations[Id];

type Parameters<Id extends OperationId> = Operation<Id>["parameters"];

type OrEmpty<T> = [NonNullable<T>] extends [never] ? Record<never, never> : NonNullable<T>;

/** Path parameters of an operation (an empty object when it has none). */
export type PathParams<Id extends OperationId> =
  Parameters<Id> extends { path?: infer P } ? OrEmpty<P> : never;

/** Query parameters of an operation, after validation applied their defaults. */
export type QueryParams<Id extends OperationId> =
  Parameters<Id> extends { query?: infer Q } ? OrEmpty<Q> : never;

/** A file part of a multipart form, as the server read it. */
export interface FormFile {
  /** The part's file name. */
  name: string;
  /** The part's declared media type. */
  contentType: string;
  bytes: Uint8Array;
}

/**
 * A multipart form's body: read on demand, so that a handler reads an upload only once the caller
 * may send it. Each part the contract names is a file.
 */
export type FormBody<Form> = () => Promise<{ [Part in keyof Form]: FormFile }>;

type RequestBodyOf<B> = B extends { content: { "application/json": infer Json } }
  ? Json
  : B extends { content: { "multipart/form-data": infer Form } }
    ? FormBody<Form>
    : undefined;

/** Request body of an operation: its JSON, a multipart form's reader, or `undefined` when it takes none. */
export type RequestBody<Id extends OperationId> = [NonNullable<Operation<Id>["requestBody"]>] extends [never]
  ? undefined
  : undefined extends Operation<Id>["requestBody"]
    ? RequestBodyOf<NonNullable<Operation<Id>["requestBody"]>> | undefined
    : RequestBodyOf<Operation<Id>["requestBody"]>;

type Responses<Id extends OperationId> = Operation<Id>["responses"];

/** The success status codes an operation declares. */
export type SuccessStatus<Id extends OperationId> = Extract<keyof Responses<Id>, 200 | 201 | 202 | 204 | 205>;

type ResponseBodyOf<R> = R extends { content: { "application/json": infer B } } ? B : undefined;

/** Headers a response declares by name (the generated index signature left out). */
type DeclaredHeaders<R> = R extends { headers: infer H }
  ? { [K in keyof H as string extends K ? never : K]: H[K] }
  : Record<never, never>;

type ResponseHeadersOf<R> = keyof DeclaredHeaders<R> extends never
  ? unknown
  : { headers: DeclaredHeaders<R> };

type Simplify<T> = { [K in keyof T]: T[K] } & {};

/** One of the success responses an operation declares: its status, body and declared headers. */
export type OperationResult<Id extends OperationId> = {
  [S in SuccessStatus<Id>]: Simplify<
    { status: S; body: ResponseBodyOf<Responses<Id>[S]> } & ResponseHeadersOf<Responses<Id>[S]>
  >;
}[SuccessStatus<Id>];

/** What a handler receives: validated input plus the authenticated caller. */
export interface HandlerInput<Id extends OperationId, Caller> {
  path: PathParams<Id>;
  query: QueryParams<Id>;
  body: RequestBody<Id>;
  caller: Caller;
}

export type Handler<Id extends OperationId, Caller> = (
  input: HandlerInput<Id, Caller>,
) => Promise<OperationResult<Id>> | OperationResult<Id>;

/** The server's implementation: exactly one handler per operationId of the contract. */
export type Handlers<Caller> = { [Id in OperationId]: Handler<Id, Caller> };
