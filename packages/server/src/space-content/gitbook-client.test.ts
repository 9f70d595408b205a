import type { Schema } from "@quire/api-types";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  type ContentScenario,
  createContentScenario,
  insertPage,
  newSpaceContent,
  updatePage,
} from "../change-requests/testing.js";
import { type GitBookAnswer as Answer, serveToGitBookClient } from "../testing/gitbook-client.js";

/** What the test calls of GitBook's client, typed by our contract. */
type Format = { format?: "markdown" | "document" };
interface GitBookSpaces {
  spaces: {
    listPagesInRevisionById(space: string, revision: string): Answer<Schema<"RevisionPageList">>;
    getPageInRevisionById(
      space: string,
      revision: string,
      page: string,
      query?: Format,
    ): Answer<Schema<"RevisionPage">>;
    getPageDocumentInRevisionById(
      space: string,
      revision: string,
      page: string,
    ): Answer<Schema<"JSONDocument">>;
    getPageInRevisionByPath(space: string, revision: string, path: string): Answer<Schema<"RevisionPage">>;
    getPageByPath(space: string, path: string): Answer<Schema<"RevisionPage">>;
    listFilesInRevisionById(space: string, revision: string): Answer<Schema<"RevisionFilePage">>;
    getRevisionSemanticChanges(space: string, revision: string): Answer<Schema<"RevisionSemanticChanges">>;
    getPageInChangeRequestByPath(space: string, cr: string, path: string): Answer<Schema<"RevisionPage">>;
    getChangeRequestChanges(space: string, cr: string): Answer<Schema<"RevisionSemanticChanges">>;
    searchSpaceContent(space: string, query: { query: string }): Answer<Schema<"SearchPageResultPage">>;
    getSpacePdf(space: string, query?: { page?: string; only?: boolean }): Answer<{ url: string }>;
    listRevisionPageMetaLinks(
      space: string,
      revision: string,
      page: string,
    ): Answer<Schema<"RevisionPageMetaLinks">>;
  };
}

let s: ContentScenario;
let served: Awaited<ReturnType<typeof serveToGitBookClient>>;
let api: GitBookSpaces;

beforeAll(async () => {
  s = await createContentScenario();
  served = await serveToGitBookClient(s.t.app);
  api = served.client<GitBookSpaces>(s.reader.token);
});
afterAll(async () => {
  await served.close();
  await s.t.close();
});

describe("GitBook's own client on history and addressing", () => {
  it("reads revisions as they were, pages by path (its slashes unencoded) and the changes", async () => {
    const space = await newSpaceContent(s);
    const ids = await space.seed([insertPage("Guide", "Read me."), insertPage("FAQ", "Old.")]);
    const guide = ids.Guide as string;
    const faq = ids.FAQ as string;
    const before = (await space.space()).revision;
    const cr = await space.createChangeRequest();
    await space.edit(cr.number, [
      updatePage(faq, { markdown: "New." }),
      insertPage("Install", "apt install", guide),
    ]);
    await space.merge(cr.number);
    const after = (await space.space()).revision;
    const { spaceId } = space;

    const pages = (await api.spaces.listPagesInRevisionById(spaceId, before)).data.pages;
    expect(pages.map((page) => page.title)).toEqual(["Guide", "FAQ"]);
    const old = (await api.spaces.getPageInRevisionById(spaceId, before, faq, { format: "markdown" })).data;
    expect(old).toMatchObject({ id: faq, markdown: "Old." });
    const document = (await api.spaces.getPageDocumentInRevisionById(spaceId, before, faq)).data;
    expect(document).toMatchObject({ object: "document", nodes: [{ type: "paragraph" }] });
    const install = (await api.spaces.getPageInRevisionByPath(spaceId, after, "guide/install")).data;
    expect(install).toMatchObject({ title: "Install", path: "guide/install" });
    expect((await api.spaces.getPageByPath(spaceId, "guide/install")).data).toMatchObject({
      title: "Install",
    });
    expect((await api.spaces.listFilesInRevisionById(spaceId, before)).data.items).toEqual([]);

    const changes = (await api.spaces.getRevisionSemanticChanges(spaceId, after)).data;
    expect(changes.mergedFrom?.id).toBe(cr.id);
    expect(changes.changes.map((change) => change.type)).toEqual(["page_created", "page_edited"]);

    const draft = await space.createChangeRequest();
    await space.edit(draft.number, [insertPage("Soon", "", guide)]);
    const inDraft = (await api.spaces.getPageInChangeRequestByPath(spaceId, draft.id, "guide/soon")).data;
    expect(inDraft).toMatchObject({ title: "Soon" });
    const drafted = (await api.spaces.getChangeRequestChanges(spaceId, draft.id)).data;
    expect(drafted.changes).toMatchObject([{ type: "page_created", page: { title: "Soon" } }]);

    const found = (await api.spaces.searchSpaceContent(spaceId, { query: "apt" })).data;
    expect(found.items).toMatchObject([{ id: install.id, title: "Install", path: "guide/install" }]);
    expect((await api.spaces.listRevisionPageMetaLinks(spaceId, after, guide)).data).toEqual({});
    const pdf = (await api.spaces.getSpacePdf(spaceId, { page: guide })).data;
    const pdfResponse = await s.t.request.get(new URL(pdf.url).pathname).expect(200);
    expect(pdfResponse.headers["content-type"]).toBe("application/pdf");
  });
});
