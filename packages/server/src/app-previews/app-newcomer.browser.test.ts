import type { Schema } from "@quire/api-types";
import { beforeAll, describe, expect, it } from "vitest";
import { appTestsSkipped, DESKTOP, servedApp } from "../testing/browser-app.js";

/**
 * Issue 51's "done when", through the app's names only: a newcomer signs in and, without the API
 * reference, creates a collection and a space, invites a person, publishes a site with two sections and
 * customizes it, reads a page and finds it by search. The API only sets the scene (a teammate's space
 * with a page: writing pages in the app is the editor's issue) and reads back what the app did.
 */
describe.skipIf(appTestsSkipped({ smoke: true }))("a newcomer's first session in the app", () => {
  const served = servedApp();
  const { json: api, post } = served;
  const org = () => served.owner().organizationId;

  beforeAll(async () => {
    const space = await post<Schema<"Space">>(`/v1/orgs/${org()}/spaces`, { title: "Team guide" });
    const cr = await post<{ number: number }>(`/v1/spaces/${space.id}/change-requests`, {});
    await post(`/v1/spaces/${space.id}/change-requests/${cr.number}/content`, {
      changes: [
        {
          type: "insert_page",
          title: "Release checklist",
          markdown: "What to check before a release.\n\nFlip the quokka flag last.\n",
        },
      ],
    });
    await post(`/v1/spaces/${space.id}/change-requests/${cr.number}/merge`, {});
  }, 60_000);

  it("creates, invites, publishes and customizes a site, reads a page and finds it", {
    timeout: 120_000,
  }, async () => {
    const page = await served.signIn("/app/", { viewport: DESKTOP });
    const main = page.getByRole("main");
    const content = page.getByRole("navigation", { name: "Content" });
    const sections = page.getByRole("navigation", { name: "Organization" });

    // A collection, and a space: each from its button, then in the Content navigation.
    for (const [button, title] of [
      ["New collection", "Product"],
      ["New space", "Product handbook"],
    ] as const) {
      await page.getByRole("button", { name: button }).click();
      const dialog = page.getByRole("dialog", { name: button });
      await dialog.getByRole("textbox", { name: "Title" }).fill(title);
      await dialog.getByRole("button", { name: "Create" }).click();
      await content.getByRole("link", { name: title }).waitFor();
    }

    // Someone to work with.
    await sections.getByRole("link", { name: "People" }).click();
    await page.getByRole("button", { name: "Invite people" }).click();
    const invite = page.getByRole("dialog", { name: "Invite people" });
    await invite.getByRole("textbox", { name: "Email addresses" }).fill("kim@example.com");
    await invite.getByRole("button", { name: "Send invitations" }).click();
    await page.getByRole("status").filter({ hasText: "Invited 1" }).waitFor();

    // A site of two sections, customized and published.
    await sections.getByRole("link", { name: "Sites" }).click();
    await main.getByRole("button", { name: "New site" }).click();
    const newSite = page.getByRole("dialog", { name: "New site" });
    await newSite.getByRole("textbox", { name: "Title" }).fill("Product docs");
    await newSite.getByRole("combobox", { name: "Space" }).selectOption({ label: "Team guide" });
    await newSite.getByRole("button", { name: "Create" }).click();
    await main.getByRole("heading", { level: 1, name: "Product docs" }).waitFor();
    const tabs = page.getByRole("navigation", { name: "Site settings" });
    await tabs.getByRole("link", { name: "Sections", exact: true }).click();
    await main.getByRole("button", { name: "Add section" }).click();
    const addSection = page.getByRole("dialog", { name: "Add section" });
    await addSection.getByRole("combobox", { name: "Space" }).selectOption({ label: "Product handbook" });
    await addSection.getByRole("textbox", { name: "Section title" }).fill("Handbook");
    await addSection.getByRole("button", { name: "Add", exact: true }).click();
    await main.getByRole("heading", { level: 3, name: "Handbook" }).waitFor();
    await tabs.getByRole("link", { name: "Customization", exact: true }).click();
    await main.getByRole("textbox", { name: "Site title" }).fill("Acme Product");
    await main.getByRole("button", { name: "Save" }).click();
    await main.getByRole("status").filter({ hasText: "Saved." }).waitFor();
    await tabs.getByRole("link", { name: "Overview", exact: true }).click();
    await main.getByRole("button", { name: "Publish", exact: true }).click();
    await main.getByRole("button", { name: "Unpublish" }).waitFor();

    // A page: found by search from the header, read where it lives.
    // The search index follows the merge: once the API finds the page, the app can too.
    await expect
      .poll(
        async () => (await api<{ items: unknown[] }>(`/v1/orgs/${org()}/search?query=quokka`)).items.length,
        { timeout: 10_000 },
      )
      .toBe(1);
    const search = page.getByRole("search").getByRole("searchbox", { name: "Search" });
    await search.fill("quokka");
    await search.press("Enter");
    await main.getByRole("link", { name: "Release checklist" }).click();
    await page.waitForURL(/\/app\/spaces\/[^/]+\/.+/);
    await main.getByRole("heading", { level: 1, name: "Release checklist" }).waitFor();
    await main.getByText("Flip the quokka flag last.").waitFor();

    // What the app did, read back through the API.
    const titles = async (kind: string) =>
      (await api<{ items: { title: string }[] }>(`/v1/orgs/${org()}/${kind}`)).items.map(
        (item) => item.title,
      );
    expect(await titles("collections")).toEqual(["Product"]);
    expect((await titles("spaces")).sort()).toEqual(["Product handbook", "Team guide"]);
    const members = await api<{ items: { user: { email?: string } }[] }>(
      `/v1/orgs/${org()}/members?search=kim`,
    );
    expect(members.items.map((member) => member.user.email)).toEqual(["kim@example.com"]);
    const [site] = (await api<{ items: Schema<"Site">[] }>(`/v1/orgs/${org()}/sites`)).items;
    expect(site).toMatchObject({ title: "Product docs", published: true });
    const siteSections = await api<{ items: { title: string }[] }>(
      `/v1/orgs/${org()}/sites/${site?.id}/sections`,
    );
    expect(siteSections.items.map((section) => section.title)).toEqual(["Product docs", "Handbook"]);
    const customization = await api<{ title?: string }>(`/v1/orgs/${org()}/sites/${site?.id}/customization`);
    expect(customization.title).toBe("Acme Product");

    // The published site, as a visitor reads it: its title, both sections, and the page.
    await page.goto(site?.urls.published ?? "");
    await page.getByText("Acme Product").first().waitFor();
    for (const section of ["Product docs", "Handbook"])
      await page.getByRole("link", { name: section }).first().waitFor();
    await page.getByRole("link", { name: "Release checklist" }).first().waitFor();
    await page.context().close();
  });
});
