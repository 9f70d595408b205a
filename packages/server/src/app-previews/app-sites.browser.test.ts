import type { Page } from "playwright-core";
import { beforeAll, describe, expect, it } from "vitest";
import { appTestsSkipped, DESKTOP, expectUsable, PHONE, servedApp } from "../testing/browser-app.js";

interface Site {
  id: string;
  title: string;
  published: boolean;
  visibility: string;
  urls: { app: string; published?: string };
}
interface Customization {
  title?: string;
  styling: { theme: string; primaryColor: { light: string; dark: string } };
  updatedAt?: string;
}

describe.skipIf(appTestsSkipped())("the sites screens, in a browser", () => {
  const served = servedApp();
  const { json: api, post } = served;
  const org = () => served.owner().organizationId;

  beforeAll(async () => {
    for (const title of ["Guide", "Reference"]) await post(`/v1/orgs/${org()}/spaces`, { title });
  });

  const main = (page: Page) => page.getByRole("main");
  const tabs = (page: Page) => page.getByRole("navigation", { name: "Site settings" });
  const openTab = async (page: Page, name: string, path: RegExp) => {
    await tabs(page).getByRole("link", { name, exact: true }).click();
    await page.waitForURL(path);
    await expect
      .poll(() => tabs(page).getByRole("link", { name, exact: true }).getAttribute("aria-current"))
      .toBe("page");
  };
  const siteNamed = async (title: string) =>
    (await api<{ items: Site[] }>(`/v1/orgs/${org()}/sites`)).items.find((site) => site.title === title);

  it("creates a site, publishes it, gives it two sections, customizes it with a live preview, unpublishes it", {
    timeout: 120_000,
  }, async () => {
    const page = await served.signIn(`/app/orgs/${org()}/sites`, { viewport: DESKTOP });
    await main(page).getByRole("heading", { level: 1, name: "Sites" }).waitFor();
    await main(page).getByText("This organization has no site yet").waitFor();

    // New site: a title and the space it publishes.
    await main(page).getByRole("button", { name: "New site" }).click();
    const dialog = page.getByRole("dialog", { name: "New site" });
    await dialog.getByRole("textbox", { name: "Title" }).fill("Docs site");
    await dialog.getByRole("combobox", { name: "Space" }).selectOption({ label: "Guide" });
    await dialog.getByRole("button", { name: "Create" }).click();
    await main(page).getByRole("heading", { level: 1, name: "Docs site" }).waitFor();
    const site = await siteNamed("Docs site");
    expect(site).toMatchObject({ published: false });
    const siteId = site?.id ?? "";
    expect(new URL(page.url()).pathname).toBe(`/app/orgs/${org()}/sites/${siteId}`);
    await expect
      .poll(() => tabs(page).getByRole("link", { name: "Overview" }).getAttribute("aria-current"))
      .toBe("page");

    // Publish: the button says what it does, and the state reads back.
    await main(page).getByRole("button", { name: "Publish", exact: true }).click();
    await main(page).getByRole("button", { name: "Unpublish" }).waitFor();
    const published = await api<Site>(`/v1/orgs/${org()}/sites/${siteId}`);
    expect(published.published).toBe(true);
    await main(page)
      .getByRole("link", { name: published.urls.published ?? "" })
      .waitFor();
    await main(page).getByRole("combobox", { name: "Visibility" }).selectOption("unlisted");
    await expect
      .poll(async () => (await api<Site>(`/v1/orgs/${org()}/sites/${siteId}`)).visibility)
      .toBe("unlisted");

    // Sections: the first one gathers the site's space into a section named after the site.
    await openTab(page, "Sections", /\/sections$/);
    await main(page).getByRole("button", { name: "Add section" }).click();
    const add = page.getByRole("dialog", { name: "Add section" });
    await add.getByRole("combobox", { name: "Space" }).selectOption({ label: "Reference" });
    await add.getByRole("textbox", { name: "Section title" }).fill("API reference");
    await add.getByRole("button", { name: "Add", exact: true }).click();
    const sections = main(page)
      .getByRole("list")
      .filter({ has: page.getByRole("heading", { level: 3 }) });
    await sections.getByRole("heading", { name: "API reference" }).waitFor();
    const listed = async () =>
      (
        await api<{ items: { title: string; siteSpaces: { space: { title: string } }[] }[] }>(
          `/v1/orgs/${org()}/sites/${siteId}/sections`,
        )
      ).items.map((section) => `${section.title}: ${section.siteSpaces.map((s) => s.space.title).join()}`);
    expect(await listed()).toEqual(["Docs site: Guide", "API reference: Reference"]);
    await main(page).getByRole("button", { name: "Move up API reference" }).click();
    await expect.poll(listed).toEqual(["API reference: Reference", "Docs site: Guide"]);
    await expectUsable(page, "a site's sections");

    // Customization: the preview follows the form before Save; Save writes it.
    await openTab(page, "Customization", /\/customization$/);
    const preview = main(page).getByRole("region", { name: "Preview" });
    const title = main(page).getByRole("textbox", { name: "Site title" });
    await title.fill("Acme Docs");
    await preview.getByText("Acme Docs").waitFor();
    await main(page).getByLabel("Primary colour").fill("#0b6e4f");
    await main(page).getByRole("combobox", { name: "Theme" }).selectOption({ label: "Bold" });
    const header = preview.locator(".site-preview-header");
    expect(await header.evaluate((el) => getComputedStyle(el).backgroundColor)).toBe("rgb(11, 110, 79)");
    expect(await header.evaluate((el) => getComputedStyle(el).color)).toBe("rgb(255, 255, 255)");
    const customization = () => api<Customization>(`/v1/orgs/${org()}/sites/${siteId}/customization`);
    expect((await customization()).title, "nothing is saved before Save").toBeUndefined();
    await expectUsable(page, "a site's customization");
    await main(page).getByRole("button", { name: "Save" }).click();
    await main(page).getByRole("status").filter({ hasText: "Saved." }).waitFor();
    const saved = await customization();
    expect(saved.title).toBe("Acme Docs");
    expect(saved.styling.theme).toBe("bold");
    expect(saved.styling.primaryColor).toEqual({ light: "#0b6e4f", dark: "#0b6e4f" });

    // Someone else saves first: Save is refused (412) and Reload shows their version.
    const { updatedAt: _read, ...theirs } = { ...saved, title: "Changed elsewhere" };
    await api(`/v1/orgs/${org()}/sites/${siteId}/customization`, {
      method: "PUT",
      body: JSON.stringify(theirs),
    });
    await title.fill("Mine");
    await main(page).getByRole("button", { name: "Save" }).click();
    const refused = main(page).getByRole("alert").filter({ hasText: "Someone else changed this" });
    await refused.waitFor();
    await refused.getByRole("button", { name: "Reload" }).click();
    await expect.poll(() => title.inputValue()).toBe("Changed elsewhere");
    expect((await customization()).title).toBe("Changed elsewhere");

    await openTab(page, "Overview", new RegExp(`/sites/${siteId}$`));
    await main(page).getByRole("button", { name: "Unpublish" }).click();
    await main(page).getByRole("button", { name: "Publish", exact: true }).waitFor();
    expect((await api<Site>(`/v1/orgs/${org()}/sites/${siteId}`)).published).toBe(false);

    // Removing a section keeps its space: the site shows the other one.
    await openTab(page, "Sections", /\/sections$/);
    await main(page).getByRole("button", { name: "Remove API reference" }).click();
    await expect.poll(listed).toEqual(["Docs site: Guide"]);
    await sections.getByRole("heading", { name: "API reference" }).waitFor({ state: "detached" });

    // The list shows it, unpublished, with its audience.
    await page.getByRole("navigation", { name: "Organization" }).getByRole("link", { name: "Sites" }).click();
    const item = main(page).getByRole("listitem").filter({ hasText: "Docs site" });
    await item.getByText("Not published").waitFor();
    await item.getByText("Unlisted").waitFor();
    await page.context().close();
  });

  it("opens the API's urls.app of a site and each tab by its own address, under the app's policy", {
    timeout: 60_000,
  }, async () => {
    const site = await post<Site>(`/v1/orgs/${org()}/sites`, { title: "Linked site" });
    // The served policy (no bypass): the preview's colours go through the CSSOM, which it allows.
    const page = await served.signIn(new URL(site.urls.app).pathname, {
      viewport: DESKTOP,
      bypassCSP: false,
    });
    await main(page).getByRole("heading", { level: 1, name: "Linked site" }).waitFor();
    await page.goto(new URL(`${site.urls.app}/redirects`).href);
    await main(page).getByRole("heading", { level: 2, name: "Redirects" }).waitFor();
    await expect
      .poll(() => tabs(page).getByRole("link", { name: "Redirects" }).getAttribute("aria-current"))
      .toBe("page");
    await page.goBack();
    await main(page).getByRole("heading", { level: 2, name: "Overview" }).waitFor();
    await openTab(page, "Customization", /\/customization$/);
    await main(page).getByLabel("Primary colour").fill("#8a1c7c");
    await main(page).getByRole("combobox", { name: "Theme" }).selectOption({ label: "Bold" });
    const header = main(page).getByRole("region", { name: "Preview" }).locator(".site-preview-header");
    expect(await header.evaluate((el) => getComputedStyle(el).backgroundColor)).toBe("rgb(138, 28, 124)");
    await page.context().close();
  });

  it("manages share links, redirects and the adaptive schema", { timeout: 60_000 }, async () => {
    const site = await post<Site>(`/v1/orgs/${org()}/sites`, { title: "Access site" });
    const page = await served.signIn(`${new URL(site.urls.app).pathname}/access`, { viewport: DESKTOP });
    await main(page).getByRole("button", { name: "New share link" }).click();
    const dialog = page.getByRole("dialog", { name: "New share link" });
    await dialog.getByRole("textbox", { name: "Name" }).fill("Partners");
    await dialog.getByRole("button", { name: "Create" }).click();
    await main(page).getByRole("button", { name: "Revoke Partners" }).click();
    await main(page).getByText("(revoked)").waitFor();
    const links = await api<{ items: { name: string; active: boolean }[] }>(
      `/v1/orgs/${org()}/sites/${site.id}/share-links`,
    );
    expect(links.items).toMatchObject([{ name: "Partners", active: false }]);
    await main(page).getByRole("button", { name: "Show the signing key" }).click();
    expect(await main(page).getByRole("textbox", { name: "Signing key" }).inputValue()).not.toBe("");

    await openTab(page, "Redirects", /\/redirects$/);
    await main(page).getByRole("button", { name: "Add redirect" }).click();
    const add = page.getByRole("dialog", { name: "Add redirect" });
    await add.getByRole("textbox", { name: "Old path" }).fill("/old/page");
    await add.getByRole("textbox", { name: "Send visitors to (URL)" }).fill("https://example.com/new");
    await add.getByRole("button", { name: "Create" }).click();
    await main(page).getByRole("button", { name: "Delete /old/page" }).click();
    await main(page).getByText("No redirects.").waitFor();

    await openTab(page, "Adaptive content", /\/adaptive$/);
    const schema = main(page).getByRole("textbox", { name: "Visitor attributes (JSON Schema)" });
    await schema.fill('{"type":"object","additionalProperties":false,"properties":{"plan":{"type":"date"}}}');
    await main(page).getByText('claims.plan: "type" must be').waitFor();
    expect(await main(page).getByRole("button", { name: "Save schema" }).isDisabled()).toBe(true);
    await schema.fill(
      '{"type":"object","additionalProperties":false,"properties":{"plan":{"type":"string","description":"Plan"}}}',
    );
    await main(page).getByRole("button", { name: "Save schema" }).click();
    await main(page).getByRole("status").filter({ hasText: "Saved." }).waitFor();
    const read = await api<{ jsonSchema: { properties: object } }>(
      `/v1/orgs/${org()}/sites/${site.id}/adaptive-schema`,
    );
    expect(read.jsonSchema.properties).toEqual({ plan: { type: "string", description: "Plan" } });
    await page.context().close();
  });

  it("groups a site's sections: adds a group, puts a section in it, renames it, deletes it (the section stays)", {
    timeout: 90_000,
  }, async () => {
    const site = await post<Site>(`/v1/orgs/${org()}/sites`, { title: "Grouped site" });
    const spaces = await api<{ items: { id: string; title: string }[] }>(`/v1/orgs/${org()}/spaces`);
    for (const [title, space] of [
      ["Basics", "Guide"],
      ["Endpoints", "Reference"],
    ] as const)
      await post(`/v1/orgs/${org()}/sites/${site.id}/sections`, {
        spaceId: spaces.items.find((item) => item.title === space)?.id,
        title,
      });
    const groups = async () =>
      (
        await api<{ items: { title: string; sections: { title: string }[] }[] }>(
          `/v1/orgs/${org()}/sites/${site.id}/section-groups`,
        )
      ).items.map((group) => `${group.title}: ${group.sections.map((section) => section.title).join()}`);
    const grouped = async () =>
      (
        await api<{ items: { title: string; sectionGroup?: string }[] }>(
          `/v1/orgs/${org()}/sites/${site.id}/sections`,
        )
      ).items
        .filter((section) => section.sectionGroup !== undefined)
        .map((section) => section.title);

    const page = await served.signIn(`${new URL(site.urls.app).pathname}/sections`, { viewport: DESKTOP });
    await main(page).getByRole("heading", { level: 3, name: "Basics" }).waitFor();
    await main(page).getByRole("button", { name: "Add group" }).click();
    const add = page.getByRole("dialog", { name: "Add group" });
    await add.getByRole("textbox", { name: "Group title" }).fill("Start here");
    await expectUsable(page, "the Add group dialog (desktop)");
    await add.getByRole("button", { name: "Add", exact: true }).click();
    await main(page).getByRole("heading", { level: 3, name: "Group: Start here" }).waitFor();
    expect(await groups()).toEqual(["Start here: "]);

    // Basics goes into the group: the API and the screen both show it there.
    const groupOfBasics = main(page).getByRole("combobox", { name: "Group of Basics" });
    await groupOfBasics.selectOption({ label: "Start here" });
    await expect.poll(groups).toEqual(["Start here: Basics"]);
    expect(await grouped()).toEqual(["Basics"]);
    await main(page).getByRole("heading", { level: 4, name: "Basics" }).waitFor();
    await expect.poll(() => groupOfBasics.locator("option:checked").textContent()).toBe("Start here");
    await expectUsable(page, "a site's sections with a group (desktop)");

    // Rename, checked on a phone too.
    await page.setViewportSize(PHONE);
    await expectUsable(page, "a site's sections with a group (phone)");
    await main(page).getByRole("button", { name: "Rename Start here" }).click();
    const rename = page.getByRole("dialog", { name: "Rename the group “Start here”" });
    await expectUsable(page, "the Rename group dialog (phone)");
    await rename.getByRole("textbox", { name: "Group title" }).fill("First steps");
    await rename.getByRole("button", { name: "Rename", exact: true }).click();
    await expect.poll(groups).toEqual(["First steps: Basics"]);
    await main(page).getByRole("heading", { level: 3, name: "Group: First steps" }).waitFor();

    // Deleting the group keeps its section, back at the site's top level.
    await main(page).getByRole("button", { name: "Delete group First steps" }).click();
    const remove = page.getByRole("dialog", { name: "Delete group" });
    await expectUsable(page, "the Delete group dialog (phone)");
    await remove.getByRole("button", { name: "Delete", exact: true }).click();
    await expect.poll(groups).toEqual([]);
    expect(await grouped()).toEqual([]);
    await main(page).getByRole("heading", { level: 3, name: "Basics" }).waitFor();
    await main(page).getByRole("heading", { level: 3, name: "Endpoints" }).waitFor();
    await page.context().close();
  });

  it("edits a section and who sees it: a refused condition is told, a claim of the adaptive schema inserted, then removed", {
    timeout: 90_000,
  }, async () => {
    const site = await post<Site>(`/v1/orgs/${org()}/sites`, { title: "Adaptive site" });
    const spaces = await api<{ items: { id: string; title: string }[] }>(`/v1/orgs/${org()}/spaces`);
    await post(`/v1/orgs/${org()}/sites/${site.id}/sections`, {
      spaceId: spaces.items.find((item) => item.title === "Guide")?.id,
      title: "Beta guide",
    });
    await api(`/v1/orgs/${org()}/sites/${site.id}/adaptive-schema`, {
      method: "PUT",
      body: JSON.stringify({
        jsonSchema: {
          type: "object",
          additionalProperties: false,
          properties: { beta: { type: "boolean", description: "In the beta programme" } },
        },
      }),
    });
    interface Section {
      title: string;
      path: string;
      condition?: string;
      siteSpaces: { title: string; condition?: string }[];
    }
    const section = async () =>
      (await api<{ items: Section[] }>(`/v1/orgs/${org()}/sites/${site.id}/sections`)).items[0];
    const before = await section();

    const page = await served.signIn(`${new URL(site.urls.app).pathname}/sections`, { viewport: DESKTOP });
    const row = main(page)
      .getByRole("listitem")
      .filter({ has: page.getByRole("heading", { name: "Beta guide" }) });
    await main(page).getByRole("button", { name: "Edit Beta guide" }).click();
    const dialog = page.getByRole("dialog", { name: "Edit section" });
    const title = dialog.getByRole("textbox", { name: "Title" });
    const condition = dialog.getByRole("textbox", { name: "Condition" });
    await expect.poll(() => title.inputValue()).toBe("Beta guide");
    expect(await dialog.getByRole("textbox", { name: "Path" }).inputValue()).toBe(before?.path);
    await expectUsable(page, "the Edit section dialog (desktop)");

    // A condition that does not parse: refused in words, the dialog stays with what was typed.
    await title.fill("Beta only");
    await condition.fill("visitor.claims.beta ==");
    await dialog.getByRole("button", { name: "Save" }).click();
    await dialog.getByRole("alert").filter({ hasText: "not a valid expression" }).waitFor();
    expect(await condition.inputValue()).toBe("visitor.claims.beta ==");
    expect(await title.inputValue()).toBe("Beta only");
    expect(await section()).toEqual(before);

    // The schema's claim goes in as a test; Save writes it, with the new title.
    await condition.fill("");
    await dialog.getByRole("group", { name: "Insert claim" }).getByRole("button", { name: "beta" }).click();
    await expect.poll(() => condition.inputValue()).toBe("visitor.claims.beta == true");
    await dialog.getByRole("button", { name: "Save" }).click();
    await dialog.waitFor({ state: "hidden" });
    expect(await section()).toMatchObject({
      title: "Beta only",
      path: before?.path,
      condition: "visitor.claims.beta == true",
    });
    const edited = main(page)
      .getByRole("listitem")
      .filter({ has: page.getByRole("heading", { name: "Beta only" }) });
    await edited.getByText("Shown when: visitor.claims.beta == true").first().waitFor();
    await expect.poll(() => row.count()).toBe(0);

    // Emptied, the condition is removed: everyone sees the section again.
    await main(page).getByRole("button", { name: "Edit Beta only" }).click();
    await expect.poll(() => condition.inputValue()).toBe("visitor.claims.beta == true");
    await condition.fill("");
    await dialog.getByRole("button", { name: "Save" }).click();
    await dialog.waitFor({ state: "hidden" });
    await expect.poll(async () => (await section())?.condition).toBeUndefined();
    expect((await section())?.title).toBe("Beta only");
    await expect.poll(() => edited.getByText("Shown when:").count()).toBe(0);

    // A site space of the section gets its own condition, through the same field.
    await main(page).getByRole("button", { name: "Edit condition of Guide" }).click();
    const ofSpace = page.getByRole("dialog", { name: "Condition of the space “Guide”" });
    await ofSpace.getByRole("group", { name: "Insert claim" }).getByRole("button", { name: "beta" }).click();
    await expectUsable(page, "the Edit condition dialog of a site space (desktop)");
    await ofSpace.getByRole("button", { name: "Save" }).click();
    await ofSpace.waitFor({ state: "hidden" });
    expect((await section())?.siteSpaces).toMatchObject([
      { title: "Guide", condition: "visitor.claims.beta == true" },
    ]);
    expect((await section())?.condition).toBeUndefined();
    await edited.getByRole("listitem").filter({ hasText: "Guide" }).getByText("Shown when:").waitFor();
    await expectUsable(page, "a site's sections with conditions (desktop)");
    await page.context().close();
  });

  for (const [at, viewport] of [
    ["desktop", DESKTOP],
    ["phone", PHONE],
  ] as const)
    it(`is usable on every view and open dialog, on a ${at}`, { timeout: 120_000 }, async () => {
      const site = await post<Site>(`/v1/orgs/${org()}/sites`, { title: `Checked on a ${at}` });
      const spaces = await api<{ items: { id: string }[] }>(`/v1/orgs/${org()}/spaces`);
      await post(`/v1/orgs/${org()}/sites/${site.id}/sections`, {
        spaceId: spaces.items[0]?.id,
        title: "Checked",
      });
      const page = await served.signIn(`/app/orgs/${org()}/sites`, { viewport });
      const dialog = async (button: string, name = button) => {
        await main(page).getByRole("button", { name: button }).click();
        await page.getByRole("dialog", { name }).waitFor();
        await expectUsable(page, `the ${name} dialog (${at})`);
        await page.keyboard.press("Escape");
        await page.getByRole("dialog", { name }).waitFor({ state: "hidden" });
      };
      const view = async (tab: string, heading: string) => {
        if (tab) await tabs(page).getByRole("link", { name: tab, exact: true }).click();
        await main(page).getByRole("heading", { level: 2, name: heading }).waitFor();
        await expect.poll(() => main(page).getByText("Loading…").count()).toBe(0);
        await expectUsable(page, `the ${heading} view (${at})`);
      };
      await main(page)
        .getByRole("link", { name: `Checked on a ${at}` })
        .waitFor();
      await expectUsable(page, `the sites list (${at})`);
      await dialog("New site");
      await main(page)
        .getByRole("link", { name: `Checked on a ${at}` })
        .click();
      await view("", "Overview");
      await dialog("Delete site");
      await view("Sections", "Sections");
      await dialog("Add section");
      await dialog("Edit Checked", "Edit section");
      await view("Customization", "Customization");
      await view("Access", "Access");
      await dialog("New share link");
      await view("Redirects", "Redirects");
      await dialog("Add redirect");
      await view("Adaptive content", "Adaptive content");
      await page.context().close();
    });
});
