import type { Page } from "playwright-core";
import { beforeAll, describe, expect, it } from "vitest";
import { appTestsSkipped, DESKTOP, expectUsable, PHONE, servedApp } from "../testing/browser-app.js";

interface Member {
  id: string;
  role: string | null;
  user: { displayName: string; email?: string };
}

/** Members added in bulk: more than the list's pages of a hundred, so scrolling reads the next. */
const BULK = 300;

describe.skipIf(appTestsSkipped())("the app's People screen, in a browser", () => {
  const served = servedApp();
  const { json: api, post } = served;
  let org = "";
  const people = (tab = "members") => `/app/orgs/${org}/people/${tab}`;
  const membersMatching = async (search: string) =>
    (await api<{ items: Member[] }>(`/v1/orgs/${org}/members?search=${encodeURIComponent(search)}`)).items;
  /** Waits until `check` holds of what the API reads back (the app's write is done by then). */
  const eventually = async (check: () => Promise<boolean>, what: string) => {
    for (let tries = 0; tries < 50; tries++) {
      if (await check()) return;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    throw new Error(`Never true: ${what}`);
  };

  beforeAll(async () => {
    org = served.owner().organizationId;
    // Inviting by email makes members at once (named after their address), the quickest way to many.
    await post(`/v1/orgs/${org}/invites`, {
      emails: ["ada@example.com", "bo@example.com", "cy@example.com"],
      role: "read",
    });
    const bulk = Array.from({ length: BULK }, (_, i) => `bulk${String(i).padStart(3, "0")}@example.com`);
    for (let start = 0; start < BULK; start += 100)
      await post(`/v1/orgs/${org}/invites`, { emails: bulk.slice(start, start + 100), role: "read" });
  }, 120_000);

  const open = async (path: string, viewport = DESKTOP): Promise<Page> => {
    const page = await served.signIn(path, { viewport });
    await page.getByRole("main").getByRole("heading", { level: 1, name: "People" }).waitFor();
    return page;
  };
  const filterTo = async (page: Page, search: string) => {
    await page.getByRole("searchbox", { name: "Filter members" }).fill(search);
    await page.waitForURL((url) => url.searchParams.get("q") === search);
    await page
      .getByRole("status")
      .filter({ hasText: /^Members: 1$/ })
      .waitFor();
  };

  it("has a tab per section, each its own address, usable with its dialogs on desktop and phone", {
    timeout: 180_000,
  }, async () => {
    for (const viewport of [DESKTOP, PHONE]) {
      const page = await open(`/app/orgs/${org}/people/`, viewport);
      await page.waitForURL((url) => url.pathname === people("members"));
      const tabs = page.getByRole("navigation", { name: "People sections" });
      for (const [name, tab] of [
        ["Members", "members"],
        ["Teams", "teams"],
        ["Invitations", "invites"],
      ] as const) {
        const link = tabs.getByRole("link", { name });
        await link.click();
        await page.waitForURL((url) => url.pathname === people(tab));
        // The current tab is marked once the screen shows it (the address changes first).
        await tabs.locator('a[aria-current="page"]', { hasText: name }).waitFor();
        await page.getByRole("heading", { level: 2, name }).waitFor();
        if (tab === "members")
          await page.getByRole("list", { name: "Members" }).getByRole("listitem").first().waitFor();
        await expectUsable(page, `the ${name} tab`);
      }
      await page.getByRole("button", { name: "Invite people" }).click();
      const dialog = page.getByRole("dialog", { name: "Invite people" });
      await dialog.getByRole("textbox", { name: "Email addresses" }).waitFor();
      await expectUsable(page, "the Invite people dialog");
      await page.keyboard.press("Escape");
      await dialog.waitFor({ state: "hidden" });

      await tabs.getByRole("link", { name: "Members" }).click();
      await filterTo(page, "bo@");
      await page.getByRole("button", { name: "Remove bo" }).click();
      const confirm = page.getByRole("dialog", { name: "Remove bo from the organization?" });
      await confirm.waitFor();
      await expectUsable(page, "the remove dialog");
      await confirm.getByRole("button", { name: "Cancel" }).click();
      await confirm.waitFor({ state: "hidden" });
      await page.context().close();
    }
    expect(await membersMatching("bo@"), "cancelled: bo stays").toHaveLength(1);
  });

  it("lists members, changes a role (read back), rolls a refused change back and removes after confirming", {
    timeout: 90_000,
  }, async () => {
    const page = await open(people());
    await filterTo(page, "ada");
    await page.getByText("ada@example.com").waitFor();
    await page.getByRole("combobox", { name: "Role of ada" }).selectOption({ label: "Editor" });
    await eventually(async () => (await membersMatching("ada@"))[0]?.role === "edit", "ada is an editor");

    // The owner is the only admin: the server refuses, the select comes back, and says why in words.
    await filterTo(page, "owner@");
    const owner = page.getByRole("combobox", { name: "Role of Owner" });
    await owner.selectOption({ label: "Reader" });
    await page.getByRole("alert").filter({ hasText: "an organization needs at least one admin" }).waitFor();
    await eventually(async () => (await owner.inputValue()) === "admin", "the owner's role rolled back");
    expect((await membersMatching("owner@"))[0]?.role).toBe("admin");

    await filterTo(page, "cy@");
    await page.getByRole("button", { name: "Remove cy" }).click();
    await page
      .getByRole("dialog", { name: "Remove cy from the organization?" })
      .getByRole("button", { name: "Remove" })
      .click();
    await page.getByText("No member's name or email matches “cy@”.").waitFor();
    expect(await membersMatching("cy@")).toEqual([]);
    await page.context().close();
  });

  it("keeps only a window of the long list in the page and reads the next page as one scrolls", {
    timeout: 90_000,
  }, async () => {
    const page = await open(people());
    const list = page.getByRole("list", { name: "Members" });
    await list.getByRole("listitem").first().waitFor();
    const total = BULK + 3; // the bulk, ada, bo and the owner (cy is removed by then, or not: ±1)
    const shown = await list.getByRole("listitem").count();
    expect(shown, "only the rows in view, and a few more").toBeLessThan(60);
    const setSize = Number(await list.getByRole("listitem").first().getAttribute("aria-setsize"));
    expect(Math.abs(setSize - total)).toBeLessThanOrEqual(1);

    const nextPage = page.waitForRequest((request) => /\/members\?.*page=/.test(request.url()));
    const scroller = page.locator(".member-scroller");
    for (let step = 0; step < 12; step++) await scroller.evaluate((box) => box.scrollBy(0, 600));
    await nextPage;
    // Each page read makes the list longer: keep going to its end until the last member shows.
    await eventually(async () => {
      await scroller.evaluate((box) => box.scrollTo(0, box.scrollHeight));
      return (await list.locator(`[aria-posinset="${setSize}"]`).count()) === 1;
    }, "the last member is shown at the end");
    expect(await list.getByRole("listitem").count()).toBeLessThan(60);
    await page.context().close();
  });

  it("invites people by email, who are members at once", { timeout: 90_000 }, async () => {
    const page = await open(people("invites"));
    await page.getByRole("button", { name: "Invite people" }).click();
    const dialog = page.getByRole("dialog", { name: "Invite people" });
    const emails = dialog.getByRole("textbox", { name: "Email addresses" });
    await emails.fill("dee@example.com, not-an-address");
    await dialog.getByRole("button", { name: "Send invitations" }).click();
    await dialog.getByRole("alert").filter({ hasText: "not-an-address" }).waitFor();
    await emails.fill("dee@example.com\neve@example.com");
    await dialog.getByRole("combobox", { name: "Role" }).selectOption({ label: "Editor" });
    await dialog.getByRole("button", { name: "Send invitations" }).click();
    await page.getByRole("status").filter({ hasText: "Invited 2" }).waitFor();
    await expect.poll(() => dialog.isVisible()).toBe(false);
    for (const email of ["dee@example.com", "eve@example.com"])
      expect((await membersMatching(email))[0]?.role).toBe("edit");
    await page.context().close();
  });

  it("creates an invite link with a role, offers to copy it, and revokes it", {
    timeout: 90_000,
  }, async () => {
    const page = await open(people("invites"));
    await page
      .getByRole("combobox", { name: "Role given by a new link" })
      .selectOption({ label: "Reviewer" });
    await page.getByRole("button", { name: "Create link" }).click();
    const links = page.getByRole("list", { name: "Invite links" });
    await links.getByText("Link giving the role Reviewer").waitFor();
    const listed = async () =>
      (await api<{ items: { id: string; role: string }[] }>(`/v1/orgs/${org}/link-invites`)).items;
    const [link] = await listed();
    expect(link?.role).toBe("review");
    const address = links.getByRole("textbox", { name: "Address of the link giving the role Reviewer" });
    expect(await address.inputValue()).toMatch(new RegExp(`/join/link/${link?.id}$`));
    await links.getByRole("button", { name: "Copy link" }).waitFor();
    await links.getByRole("button", { name: "Revoke the link giving the role Reviewer" }).click();
    await page.getByText("There are no invite links.").waitFor();
    expect(await listed()).toEqual([]);
    await page.context().close();
  });

  it("creates a team, adds a member to it, renames and deletes it, usable on desktop and phone", {
    timeout: 120_000,
  }, async () => {
    const page = await open(people("teams"));
    await page.getByRole("textbox", { name: "New team's name" }).fill("Writers");
    await page.getByRole("button", { name: "Create team" }).click();
    await page.getByRole("heading", { level: 3, name: "Writers" }).waitFor();
    const teamUrl = new URL(page.url()).pathname;
    expect(teamUrl).toMatch(new RegExp(`^${people("teams")}/[^/]+$`));
    const teamId = teamUrl.split("/").at(-1) ?? "";

    await page.getByRole("searchbox", { name: "Find a member" }).fill("ada");
    await page.getByRole("button", { name: "Add ada" }).click();
    await page.getByRole("list", { name: "Members of Writers" }).getByText("ada@example.com").waitFor();
    const teamMembers = async () =>
      (await api<{ items: { organization: Member }[] }>(`/v1/orgs/${org}/teams/${teamId}/members`)).items.map(
        (item) => item.organization.user.displayName,
      );
    expect(await teamMembers()).toEqual(["ada"]);
    await expectUsable(page, "a team");

    const phone = await open(teamUrl, PHONE);
    await phone.getByRole("heading", { level: 3, name: "Writers" }).waitFor();
    await phone.getByRole("list", { name: "Members of Writers" }).getByText("ada", { exact: true }).waitFor();
    await expectUsable(phone, "a team");
    await phone.getByRole("button", { name: "Delete team" }).click();
    await phone.getByRole("dialog", { name: "Delete the team Writers?" }).waitFor();
    await expectUsable(phone, "the delete team dialog");
    await phone.keyboard.press("Escape");
    await phone.context().close();

    await page.getByRole("button", { name: "Remove ada from Writers" }).click();
    await page.getByText("This team has no members yet.").waitFor();
    expect(await teamMembers()).toEqual([]);
    await page.getByRole("textbox", { name: "Name of the team Writers" }).fill("Authors");
    await page.getByRole("button", { name: "Rename" }).click();
    await page.getByRole("heading", { level: 3, name: "Authors" }).waitFor();
    expect((await api<{ title: string }>(`/v1/orgs/${org}/teams/${teamId}`)).title).toBe("Authors");
    await page.getByRole("button", { name: "Delete team" }).click();
    await page
      .getByRole("dialog", { name: "Delete the team Authors?" })
      .getByRole("button", { name: "Delete team" })
      .click();
    await page.waitForURL((url) => url.pathname === people("teams"));
    await page.getByText("This organization has no teams yet.").waitFor();
    expect((await served.api(`/v1/orgs/${org}/teams/${teamId}`)).status).toBe(404);
    await page.context().close();
  });
});
