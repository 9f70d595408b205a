// A tour of the main flows: a space, edits proposed in a change request, a comment, the merge, the pages.
// QUIRE_TOKEN=quire_… QUIRE_ORG=<organization id> node packages/client/examples/quickstart.mjs
import { allItems, createClient, unwrap } from "@quire/client";

const quire = createClient({
  baseUrl: process.env.QUIRE_URL ?? "http://localhost:8080",
  token: process.env.QUIRE_TOKEN ?? "",
});
const organizationId = process.env.QUIRE_ORG ?? "";

// A space, at the top level of the organization.
const space = await unwrap(
  quire.POST("/v1/orgs/{organizationId}/spaces", {
    params: { path: { organizationId } },
    body: { title: "Handbook" },
  }),
);

// Content changes go through a change request: open one, propose pages, merge it.
const spaceId = space.id;
const changeRequest = await unwrap(
  quire.POST("/v1/spaces/{spaceId}/change-requests", {
    params: { path: { spaceId } },
    body: { subject: "First pages" },
  }),
);
const changeRequestId = changeRequest.id;
await unwrap(
  quire.POST("/v1/spaces/{spaceId}/change-requests/{changeRequestId}/content", {
    params: { path: { spaceId, changeRequestId } },
    body: {
      changes: [
        { type: "insert_page", title: "Welcome", markdown: "Start here." },
        { type: "insert_page", title: "Install", markdown: "Run `npm ci && npm start`." },
      ],
    },
  }),
);
// A reviewer comments on the proposal before it is merged.
const comment = await unwrap(
  quire.POST("/v1/spaces/{spaceId}/change-requests/{changeRequestId}/comments", {
    params: { path: { spaceId, changeRequestId } },
    body: { body: { markdown: "Looks good." } },
  }),
);
console.log(`comment by ${comment.postedBy.displayName}: ${comment.body.markdown}`);
await unwrap(
  quire.POST("/v1/spaces/{spaceId}/change-requests/{changeRequestId}/merge", {
    params: { path: { spaceId, changeRequestId } },
  }),
);

// The space's main content now holds the pages.
const { pages } = await unwrap(
  quire.GET("/v1/spaces/{spaceId}/content/pages", { params: { path: { spaceId } } }),
);
console.log(`${space.title}: ${pages.map((page) => page.title).join(", ")}`);

// Every space of the organization, page after page.
for await (const each of allItems((page) =>
  quire.GET("/v1/orgs/{organizationId}/spaces", { params: { path: { organizationId }, query: { page } } }),
)) {
  console.log(`space ${each.id}: ${each.title}`);
}
