import { parseHTML } from "linkedom";
import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type ContentScenario, createContentScenario, insertPage } from "../change-requests/testing.js";
import { browserMissing, inBrowser, seriousViolations } from "../testing/browser.js";
import { siteVisits } from "./testing.js";

let s: ContentScenario;
beforeAll(async () => {
  s = await createContentScenario();
});
afterAll(() => s.t.close());
const { visit, publishedSite } = siteVisits(() => s);

/** GitBook's tabs, a heading in the second, then a task list. */
const INSTALL = [
  "Pick your system.",
  "{% tabs %}",
  '{% tab title="macOS" %}\nRun the installer for macOS.\n{% endtab %}',
  '{% tab title="Windows" %}\n### Windows setup\n\nRun the installer for Windows.\n{% endtab %}',
  '{% tab title="Linux" %}\nRun the package for Linux.\n{% endtab %}',
  "{% endtabs %}",
  "## Checklist",
  "- [x] Done\n- [ ] Not *yet* done",
].join("\n\n");

/** The site's first page (served at its root): the install page. */
let root: string;
beforeAll(async () => {
  const { site } = await publishedSite([insertPage("Install", INSTALL)]);
  root = `/s/${site.id}/`;
});

describe("GitBook's tabs on a published page", () => {
  it("are served as a tab list named by their titles, the first tab selected and its panel alone shown", async () => {
    const { document } = parseHTML((await visit(root).expect(200)).text);
    const tabs = Array.from(document.querySelectorAll('main [role="tablist"] > [role="tab"]'));
    expect(tabs.map((tab) => [tab.textContent, tab.getAttribute("aria-selected")])).toEqual([
      ["macOS", "true"],
      ["Windows", "false"],
      ["Linux", "false"],
    ]);
    const panels = tabs.map((tab) => document.getElementById(tab.getAttribute("aria-controls") ?? ""));
    expect(panels.map((panel) => panel?.getAttribute("role"))).toEqual(["tabpanel", "tabpanel", "tabpanel"]);
    expect(panels.map((panel) => panel?.getAttribute("aria-labelledby"))).toEqual(tabs.map((tab) => tab.id));
    expect(panels.map((panel) => panel?.hasAttribute("hidden"))).toEqual([false, true, true]);
    expect(panels[1]?.textContent).toContain("Run the installer for Windows.");
    // Their titles are the tabs' names only, and their class is not the site's section links'.
    expect(document.querySelector("main .tab-title, main .tabs")).toBeNull();
    // The tab order reaches the selected tab; the arrow keys, the others.
    expect(tabs.map((tab) => tab.getAttribute("tabindex"))).toEqual([null, "-1", "-1"]);
  });
});

describe.skipIf(browserMissing)("GitBook's blocks in a browser", { timeout: 60_000 }, () => {
  const browser = inBrowser(() => s.t.app);
  const panel = (page: Page, name: string) => page.getByRole("tabpanel", { name, includeHidden: true });
  const shown = async (page: Page) => {
    const names = ["macOS", "Windows", "Linux"];
    const visible = await Promise.all(names.map((name) => panel(page, name).isVisible()));
    return names.filter((_, i) => visible[i]);
  };

  it("switches tabs by clicking them, and with the arrow keys, Home and End", async () => {
    const page = await browser.open(root);
    const tab = (name: string) => page.getByRole("tab", { name });
    await tab("Windows").click();
    expect(await shown(page)).toEqual(["Windows"]);
    expect(await tab("Windows").getAttribute("aria-selected")).toBe("true");
    expect(await tab("macOS").getAttribute("aria-selected")).toBe("false");

    const focused = () => page.evaluate(() => document.activeElement?.textContent);
    await page.keyboard.press("ArrowRight");
    expect([await focused(), await shown(page)]).toEqual(["Linux", ["Linux"]]);
    await page.keyboard.press("ArrowRight");
    expect([await focused(), await shown(page)]).toEqual(["macOS", ["macOS"]]);
    await page.keyboard.press("ArrowLeft");
    expect([await focused(), await shown(page)]).toEqual(["Linux", ["Linux"]]);
    await page.keyboard.press("Home");
    expect([await focused(), await shown(page)]).toEqual(["macOS", ["macOS"]]);
    await page.keyboard.press("End");
    expect([await focused(), await shown(page)]).toEqual(["Linux", ["Linux"]]);
    expect(await tab("Linux").getAttribute("tabindex")).toBe("0");
    expect(await tab("macOS").getAttribute("tabindex")).toBe("-1");
  });

  it("shows the first tab without a script", async () => {
    const page = await browser.open(root, { javaScriptEnabled: false });
    expect(await shown(page)).toEqual(["macOS"]);
    expect(await page.getByText("Run the installer for macOS.").isVisible()).toBe(true);
    expect(await page.getByRole("tab", { name: "macOS", selected: true }).count()).toBe(1);
  });

  it("shows the tab a link leads into, from the page's contents or from elsewhere", async () => {
    const page = await browser.open(`${root}#windows-setup`);
    await panel(page, "Windows").waitFor();
    expect(await shown(page)).toEqual(["Windows"]);
    await page.getByRole("tab", { name: "macOS" }).click();
    await page
      .getByRole("navigation", { name: "On this page" })
      .getByRole("link", { name: "Checklist" })
      .click();
    await page
      .getByRole("navigation", { name: "On this page" })
      .getByRole("link", { name: "Windows setup" })
      .click();
    await page.getByRole("heading", { name: "Windows setup" }).waitFor();
    expect(await shown(page)).toEqual(["Windows"]);
  });

  it("has no serious or critical accessibility violation, each task's checkbox named by its item", async () => {
    // axe is a script, which the pages' policy refuses: the test's context bypasses it.
    const page = await browser.open(root, { bypassCSP: true });
    expect(await seriousViolations(page)).toEqual([]);
    expect(await page.getByRole("checkbox", { name: "Done", exact: true, checked: true }).count()).toBe(1);
    expect(
      await page.getByRole("checkbox", { name: "Not yet done", exact: true, checked: false }).count(),
    ).toBe(1);
  });
});
