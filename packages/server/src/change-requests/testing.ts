import { type ErrorType, type Schema, STATUS_TYPES } from "@quire/api-types";
import { expect } from "vitest";
import { buildSpace } from "../testing/factories.js";
import {
  createOrganizationScenario,
  type OrganizationScenario,
  type TestAppOptions,
  type TestUser,
} from "../testing/harness.js";

type Change = Schema<"UpdateChangeRequestContentRequest">["changes"][number];
type Page = Schema<"RevisionPage">;

/** An organization with a member of each role that matters to content, besides the scenario's. */
export interface ContentScenario extends OrganizationScenario {
  commenter: TestUser;
  editor: TestUser;
  reviewer: TestUser;
}

export function createContentScenario(options: TestAppOptions = {}): Promise<ContentScenario> {
  return createOrganizationScenario({
    ...options,
    users: { commenter: "comment", editor: "edit", reviewer: "review" },
  });
}

/** Every page of a tree, depth first, in order. */
export function flatten(pages: readonly Page[]): Page[] {
  return pages.flatMap((page) => [page, ...flatten(page.pages ?? [])]);
}

/** Requests on one space's content as `user` (its admin by default), asserting the expected status. */
export function spaceContent({ t, organizationId, admin }: ContentScenario, spaceId: string) {
  const space = `/v1/spaces/${spaceId}`;
  const client = {
    spaceId,
    async createChangeRequest(user: TestUser = admin, subject?: string): Promise<Schema<"ChangeRequest">> {
      const res = await t.request
        .post(`${space}/change-requests`)
        .set(user.auth)
        .send(subject === undefined ? {} : { subject })
        .expect(201);
      return res.body;
    },
    /** A change request `user` creates and opens at once. */
    async openChangeRequest(user: TestUser, subject: string): Promise<Schema<"ChangeRequest">> {
      const cr = await client.createChangeRequest(user, subject);
      await t.request
        .patch(`${space}/change-requests/${cr.number}`)
        .set(user.auth)
        .send({ status: "open" })
        .expect(200);
      return cr;
    },
    async getChangeRequest(cr: number | string, user: TestUser = admin): Promise<Schema<"ChangeRequest">> {
      return (await t.request.get(`${space}/change-requests/${cr}`).set(user.auth).expect(200)).body;
    },
    edit(cr: number | string, changes: Change[], user: TestUser = admin, status = 200) {
      return t.request
        .post(`${space}/change-requests/${cr}/content`)
        .set(user.auth)
        .send({ changes })
        .expect(status);
    },
    merge(cr: number | string, user: TestUser = admin, status = 200) {
      return t.request.post(`${space}/change-requests/${cr}/merge`).set(user.auth).expect(status);
    },
    update(cr: number | string, user: TestUser = admin, status = 200) {
      return t.request.post(`${space}/change-requests/${cr}/update`).set(user.auth).expect(status);
    },
    /** The page tree of the main content, or of a change request. */
    async pages(cr?: number | string): Promise<Page[]> {
      const url =
        cr === undefined ? `${space}/content/pages` : `${space}/change-requests/${cr}/content/pages`;
      return (await t.request.get(url).set(admin.auth).expect(200)).body.pages;
    },
    /** One page with its body, from the main content or a change request. */
    async page(pageId: string, cr?: number | string): Promise<Page & { markdown: string }> {
      const base = cr === undefined ? `${space}/content` : `${space}/change-requests/${cr}/content`;
      return (await t.request.get(`${base}/page/${pageId}?format=markdown`).set(admin.auth).expect(200)).body;
    },
    /** Titles and bodies of every page, by path: what a reader of the content sees. */
    async snapshot(cr?: number | string): Promise<Record<string, { title: string; markdown: string }>> {
      const snapshot: Record<string, { title: string; markdown: string }> = {};
      for (const page of flatten(await client.pages(cr))) {
        const { title, markdown } = await client.page(page.id, cr);
        snapshot[page.path as string] = { title, markdown };
      }
      return snapshot;
    },
    /** Makes `changes` the main content through a merged change request; the ids of its pages by title. */
    async seed(changes: Change[]): Promise<Record<string, string>> {
      const cr = await client.createChangeRequest();
      await client.edit(cr.number, changes);
      await client.merge(cr.number);
      return Object.fromEntries(flatten(await client.pages()).map((page) => [page.title, page.id]));
    },
    /** The space as its API shows it. */
    async space(): Promise<Schema<"Space">> {
      return (await t.request.get(space).set(admin.auth).expect(200)).body;
    },
  };
  return { ...client, organizationId };
}

/** A new space of the scenario's organization and a client for its content. */
export async function newSpaceContent(scenario: ContentScenario, fields: { deleted_at?: string } = {}) {
  const space = await buildSpace(scenario.t, { organization_id: scenario.organizationId, ...fields });
  return spaceContent(scenario, space.id);
}

/** `insert_page` at the top level with a body. */
export const insertPage = (title: string, markdown = "", parent?: string): Change => ({
  type: "insert_page",
  title,
  markdown,
  ...(parent !== undefined && { parent }),
});

export const updatePage = (page: string, fields: { title?: string; markdown?: string }): Change => ({
  type: "update_page",
  page,
  ...fields,
});

export const deletePage = (page: string): Change => ({ type: "delete_page", page });

/** A block of GitBook's JSON document holding one unmarked text: a `paragraph`, a `heading-2`… */
export const textBlock = (type: string, text: string): Schema<"DocumentBlock"> => ({
  object: "block",
  type,
  nodes: [{ object: "text", leaves: [{ object: "leaf", text, marks: [] }] }],
});

/** GitBook's JSON document of `blocks`. */
export const jsonDocument = (...blocks: Schema<"DocumentBlock">[]): Schema<"JSONDocument"> => ({
  object: "document",
  data: {},
  nodes: blocks,
});

/** Asserts an answer is the standard error of `status` and `type` (the status's generic one unless given), mentioning `text`. */
export function expectError(body: unknown, status: number, text?: string, type?: ErrorType) {
  expect(body).toMatchObject({
    error: { code: status, type: type ?? STATUS_TYPES[status], message: expect.any(String) },
  });
  if (text) expect((body as { error: { message: string } }).error.message).toContain(text);
}
