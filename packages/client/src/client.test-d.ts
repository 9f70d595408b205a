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

  test("content reads return revisions", async () => {
    // Revision is recursive (pages hold pages), which expectTypeOf cannot compare: assignment checks it.
    const space = { params: { path: { spaceId: "s" } } };
    const live: Schema<"Revision"> = await unwrap(client.GET("/v1/spaces/{spaceId}/content", space));
    const proposed: Schema<"Revision"> = await unwrap(
      client.GET("/v1/spaces/{spaceId}/change-requests/{changeRequestId}/content", {
        params: { path: { spaceId: "s", changeRequestId: "c" } },
      }),
    );
    expectTypeOf(live.pages).toBeArray();
    expectTypeOf(proposed.files).toBeArray();
  });

  test("every area of the contract is callable", async () => {
    // Assignment to the contract's schema checks each call's data type (deep schemas such as
    // Integration, which embeds Organization, are beyond expectTypeOf's equality).
    const org = { params: { path: { organizationId: "o" } } };
    const site = { params: { path: { organizationId: "o", siteId: "s" } } };
    const space = { params: { path: { spaceId: "s" } } };
    const changeRequest = { params: { path: { spaceId: "s", changeRequestId: "c" } } };
    const calls: {
      members: Schema<"MemberPage">;
      teams: Schema<"TeamPage">;
      invites: Schema<"InvitePage">;
      saml: Schema<"SamlProviderPage">;
      sites: Schema<"SitePage">;
      sections: Schema<"SiteSectionPage">;
      sectionGroups: Schema<"SiteSectionGroupPage">;
      siteSpaces: Schema<"SiteSpacePage">;
      spaceComments: Schema<"CommentPage">;
      changeRequests: Schema<"ChangeRequestPage">;
      changeRequestComments: Schema<"CommentPage">;
      customFields: Schema<"CustomFieldPage">;
      integrations: Schema<"IntegrationPage">;
      openapi: Schema<"OpenAPISpecPage">;
      translations: Schema<"TranslationSettingsPage">;
      search: Schema<"SearchSpaceResultPage">;
      emailDomains: Schema<"EmailDomainOrganizations">;
    } = {
      members: await unwrap(client.GET("/v1/orgs/{organizationId}/members", org)),
      teams: await unwrap(client.GET("/v1/orgs/{organizationId}/teams", org)),
      invites: await unwrap(client.GET("/v1/orgs/{organizationId}/link-invites", org)),
      saml: await unwrap(client.GET("/v1/orgs/{organizationId}/saml", org)),
      sites: await unwrap(client.GET("/v1/orgs/{organizationId}/sites", org)),
      sections: await unwrap(client.GET("/v1/orgs/{organizationId}/sites/{siteId}/sections", site)),
      sectionGroups: await unwrap(
        client.GET("/v1/orgs/{organizationId}/sites/{siteId}/section-groups", site),
      ),
      siteSpaces: await unwrap(client.GET("/v1/orgs/{organizationId}/sites/{siteId}/site-spaces", site)),
      spaceComments: await unwrap(client.GET("/v1/spaces/{spaceId}/comments", space)),
      changeRequests: await unwrap(client.GET("/v1/spaces/{spaceId}/change-requests", space)),
      changeRequestComments: await unwrap(
        client.GET("/v1/spaces/{spaceId}/change-requests/{changeRequestId}/comments", changeRequest),
      ),
      customFields: await unwrap(client.GET("/v1/orgs/{organizationId}/custom-fields", org)),
      integrations: await unwrap(client.GET("/v1/integrations")),
      openapi: await unwrap(client.GET("/v1/orgs/{organizationId}/openapi", org)),
      translations: await unwrap(client.GET("/v1/orgs/{organizationId}/translations", org)),
      search: await unwrap(
        client.GET("/v1/orgs/{organizationId}/search", {
          params: { path: { organizationId: "o" }, query: { query: "q" } },
        }),
      ),
      emailDomains: await unwrap(
        client.GET("/v1/email-domains/{emailDomain}/orgs", {
          params: { path: { emailDomain: "example.com" } },
        }),
      ),
    };
    expectTypeOf(calls.members.items).toBeArray();
    // @ts-expect-error a member page is not a team page
    const wrong: Schema<"TeamPage"> = await unwrap(client.GET("/v1/orgs/{organizationId}/members", org));
    expectTypeOf(wrong).not.toBeAny();
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
