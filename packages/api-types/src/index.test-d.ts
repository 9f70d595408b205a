import { describe, expectTypeOf, test } from "vitest";
import type {
  Handler,
  HandlerInput,
  Handlers,
  OperationResult,
  PathParams,
  QueryParams,
  Schema,
} from "./index.js";

type Caller = { userId: string };

describe("handler interface", () => {
  test("inputs are typed from the contract", () => {
    expectTypeOf<PathParams<"getSpaceById">>().toEqualTypeOf<{ spaceId: string }>();
    expectTypeOf<QueryParams<"listCollectionsInOrganizationById">>().toHaveProperty("nested");
    expectTypeOf<HandlerInput<"updateSpaceById", Caller>["body"]>().toEqualTypeOf<
      Schema<"UpdateSpaceRequest">
    >();
    // A body the contract leaves optional may be absent.
    expectTypeOf<HandlerInput<"createSpace", Caller>["body"]>().toEqualTypeOf<
      Schema<"CreateSpaceRequest"> | undefined
    >();
    expectTypeOf<HandlerInput<"getSpaceById", Caller>["body"]>().toEqualTypeOf<undefined>();
  });

  test("a handler must return one of the operation's declared success responses", () => {
    expectTypeOf<OperationResult<"getSpaceById">>().toEqualTypeOf<{ status: 200; body: Schema<"Space"> }>();
    expectTypeOf<OperationResult<"createSpace">>().toEqualTypeOf<{
      status: 201;
      body: Schema<"Space">;
      headers: { location: string };
    }>();
    expectTypeOf<OperationResult<"deleteSpaceById">>().toEqualTypeOf<{ status: 204; body: undefined }>();

    // @ts-expect-error a 200 is not a declared response of createSpace
    const wrongStatus: OperationResult<"createSpace"> = { status: 200, body: {} as Schema<"Space"> };
    // @ts-expect-error a collection is not a space
    const wrongBody: OperationResult<"getSpaceById"> = { status: 200, body: {} as Schema<"Collection"> };
    // @ts-expect-error the Location header of a 201 is required
    const missingHeader: OperationResult<"createSpace"> = { status: 201, body: {} as Schema<"Space"> };
    expectTypeOf(wrongStatus).not.toBeAny();
    expectTypeOf(wrongBody).not.toBeAny();
    expectTypeOf(missingHeader).not.toBeAny();
  });

  test("a missing, extra or mistyped handler fails to compile", () => {
    type Implemented = Handlers<Caller>;
    expectTypeOf<keyof Implemented>().toEqualTypeOf<keyof import("./index.js").operations>();

    const getSpace: Handler<"getSpaceById", Caller> = () => ({ status: 200, body: {} as Schema<"Space"> });
    // @ts-expect-error the handler of getSpaceById cannot serve getCollectionById
    const mistyped: Handler<"getCollectionById", Caller> = getSpace;
    expectTypeOf(mistyped).not.toBeAny();

    const { getSpaceById: _omitted, ...missingOne } = {} as Implemented;
    // @ts-expect-error one handler is missing
    const incomplete: Implemented = missingOne;
    // @ts-expect-error an extra key is not an operation
    const extra: Implemented = { ...({} as Implemented), notAnOperation: getSpace };
    expectTypeOf(incomplete).not.toBeAny();
    expectTypeOf(extra).not.toBeAny();
  });
});
