import type { Schema } from "@quire/api-types";
import { describe, expectTypeOf, test } from "vitest";
import { createClient, unwrap } from "./index.js";

const client = createClient({ baseUrl: "http://localhost:8080", token: "t" });

describe("client types", () => {
  test("responses are typed by the contract", () => {
    expectTypeOf(unwrap(client.GET("/v1/user"))).resolves.toEqualTypeOf<Schema<"User">>();
    expectTypeOf(
      unwrap(client.GET("/v1/spaces/{spaceId}", { params: { path: { spaceId: "s" } } })),
    ).resolves.toEqualTypeOf<Schema<"Space">>();
    expectTypeOf(
      unwrap(
        client.GET("/v1/orgs/{organizationId}/collections", { params: { path: { organizationId: "o" } } }),
      ),
    ).resolves.toEqualTypeOf<Schema<"CollectionPage">>();
  });

  test("paths, parameters and bodies are checked", () => {
    // @ts-expect-error not a path of the contract
    void client.GET("/v1/nope");
    // @ts-expect-error the path parameter is required
    void client.GET("/v1/spaces/{spaceId}", { params: { path: {} } });
    void client.PATCH("/v1/spaces/{spaceId}", {
      params: { path: { spaceId: "s" } },
      // @ts-expect-error editMode is an enum
      body: { editMode: "frozen" },
    });
  });
});
