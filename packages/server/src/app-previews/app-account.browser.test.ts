import { Secret, TOTP } from "otpauth";
import type { Page } from "playwright-core";
import { describe, expect, it } from "vitest";
import {
  appTestsSkipped,
  DESKTOP,
  expectUsable,
  OWNER_PASSWORD,
  PHONE,
  servedApp,
} from "../testing/browser-app.js";

interface Sessions {
  items: { id: string; current: boolean; createdAt: string }[];
}

// The server takes 10 sign-ins of an account per 15 minutes of its clock, which stands still in tests:
// this file signs the owner in 9 times in all. The first test's tab stays open for the profile and
// tokens tests after it, which sign in no more.
describe.skipIf(appTestsSkipped())("the person's settings, in a browser", () => {
  const served = servedApp();
  const { browser } = served;
  const { json: api } = served;
  /** The status of the API's `GET /v1/user` for the page's browser (its session cookie). */
  const userStatus = (page: Page) => page.evaluate(() => fetch("/v1/user").then((res) => res.status));
  /** Waits for the page's session to be refused: the server remembers a known one for a second. */
  const signedOut = (page: Page) => expect.poll(() => userStatus(page), { timeout: 5_000 }).toBe(401);
  const section = (page: Page, name: string) => page.getByRole("main").getByRole("region", { name });
  /** The first test's tab, signed in, until the tokens test closes it. */
  let settings: Page | undefined;
  const settingsAt = async (name: string, tab: string) => {
    if (!settings) throw new Error("The first test left no tab open.");
    await settings
      .getByRole("navigation", { name: "Your settings sections" })
      .getByRole("link", { name })
      .click();
    await settings.waitForURL(new RegExp(`/app/settings/${tab}$`));
    return settings;
  };
  /** The status of `GET /v1/user` with `secret` as the bearer token. */
  const bearerStatus = async (secret: string) =>
    (await served.api("/v1/user", { headers: { authorization: `Bearer ${secret}` } })).status;
  /** Signs the owner in at one of the sections (a deep link). */
  const openSection = (tab: string, viewport = DESKTOP) =>
    served.signIn(`/app/settings/${tab}`, { viewport });

  it("has a section per subject, each its own address, usable on desktop and phone", {
    timeout: 120_000,
  }, async () => {
    const user = await api<{ displayName: string; email: string }>("/v1/user");
    const page = await served.signIn("/app/");
    await page.getByRole("link", { name: "Your settings" }).click();
    await page.waitForURL(/\/app\/settings\/profile$/);
    await page.getByRole("main").getByRole("heading", { level: 1, name: "Your settings" }).waitFor();
    await page.getByText(`Signed in as ${user.displayName}`).waitFor();
    const profile = section(page, "Profile");
    await expect
      .poll(() => profile.getByRole("textbox", { name: "Display name" }).inputValue())
      .toBe(user.displayName);
    await profile.getByText(user.email, { exact: true }).waitFor();
    const nav = page.getByRole("navigation", { name: "Your settings sections" });
    for (const viewport of [DESKTOP, PHONE]) {
      await page.setViewportSize(viewport);
      for (const [name, tab] of [
        ["Profile", "profile"],
        ["Password", "password"],
        ["Second factors", "factors"],
        ["Sessions", "sessions"],
        ["API tokens", "tokens"],
      ] as const) {
        const link = nav.getByRole("link", { name });
        await link.click();
        await page.waitForURL(new RegExp(`/app/settings/${tab}$`));
        // The section and the link's mark come in the same render.
        await section(page, name).getByRole("heading", { level: 2, name }).waitFor();
        await expect.poll(() => link.getAttribute("aria-current")).toBe("page");
        await page.getByRole("status").filter({ hasText: "Loading" }).waitFor({ state: "detached" });
        await expectUsable(page, `the ${name} section`);
      }
    }
    // The back button returns to the section before.
    await page.goBack();
    await page.waitForURL(/\/app\/settings\/sessions$/);
    await section(page, "Sessions").waitFor();
    settings = page;
  });

  it("renames the person, in the header and through the API", { timeout: 60_000 }, async () => {
    const page = await settingsAt("Profile", "profile");
    const profile = section(page, "Profile");
    const name = profile.getByRole("textbox", { name: "Display name" });
    const save = profile.getByRole("button", { name: "Save" });
    await name.fill("   ");
    await save.click();
    await profile.getByRole("alert").filter({ hasText: "Enter a name." }).waitFor();
    await expectUsable(page, "the profile, refused");
    await name.fill("  Ada Lovelace ");
    await save.click();
    await profile.getByRole("status").filter({ hasText: "Your name is saved." }).waitFor();
    expect(await name.inputValue()).toBe("Ada Lovelace");
    // In the header: on a phone, in the part Menu opens.
    await page.getByText("Signed in as Ada Lovelace").waitFor({ state: "attached" });
    expect((await api<{ displayName: string }>("/v1/user")).displayName).toBe("Ada Lovelace");
    for (const viewport of [PHONE, DESKTOP]) {
      await page.setViewportSize(viewport);
      await expectUsable(page, "the profile, saved");
    }
  });

  it("creates a token whose secret is shown once and works, then revokes it", {
    timeout: 90_000,
  }, async () => {
    const page = await settingsAt("API tokens", "tokens");
    const tokens = section(page, "API tokens");
    const create = page.getByRole("dialog", { name: "Create token" });
    for (const viewport of [PHONE, DESKTOP]) {
      await page.setViewportSize(viewport);
      await tokens.getByRole("button", { name: "Create token" }).click();
      await create.getByRole("textbox", { name: "Label" }).waitFor();
      await expectUsable(page, "the dialog creating a token");
      if (viewport === PHONE) {
        await page.keyboard.press("Escape");
        await create.waitFor({ state: "hidden" });
      }
    }
    await create.getByRole("button", { name: "Create", exact: true }).click();
    await create.getByRole("alert").filter({ hasText: "Enter a label." }).waitFor();
    await create.getByRole("textbox", { name: "Label" }).fill("CI deploy");
    await create.getByRole("button", { name: "Create", exact: true }).click();
    const secret = (await create.getByText(/^quire_/).textContent()) ?? "";
    await create.getByRole("button", { name: "Copy: Token secret" }).waitFor();
    for (const viewport of [PHONE, DESKTOP]) {
      await page.setViewportSize(viewport);
      await expectUsable(page, "the new token's secret");
    }
    expect(await bearerStatus(secret)).toBe(200);
    await create.getByRole("button", { name: "Done" }).click();
    await create.waitFor({ state: "hidden" });
    // Shown once: neither the list nor the API shows it again.
    const item = tokens.getByRole("listitem").filter({ hasText: "CI deploy" });
    await item.waitFor();
    expect(await page.getByText(secret).count()).toBe(0);
    const listed = await api<{ items: { id: string; label: string }[] }>("/v1/user/tokens");
    expect(listed.items.map((token) => token.label)).toContain("CI deploy");
    expect(JSON.stringify(listed)).not.toContain(secret);
    await expectUsable(page, "the tokens");

    const revoke = page.getByRole("dialog", { name: "Revoke CI deploy" });
    for (const viewport of [PHONE, DESKTOP]) {
      await page.setViewportSize(viewport);
      await item.getByRole("button", { name: "Revoke" }).click();
      await revoke.getByText("refused from now on").waitFor();
      await expectUsable(page, "the dialog revoking a token");
      if (viewport === PHONE) {
        await revoke.getByRole("button", { name: "Cancel" }).click();
        await revoke.waitFor({ state: "hidden" });
      }
    }
    await revoke.getByRole("button", { name: "Revoke" }).click();
    await tokens.getByRole("status").filter({ hasText: "The token is revoked." }).waitFor();
    await item.waitFor({ state: "detached" });
    const left = await api<{ items: { label: string }[] }>("/v1/user/tokens");
    expect(left.items.map((token) => token.label)).not.toContain("CI deploy");
    // The server remembers a known token for a second.
    await expect.poll(() => bearerStatus(secret), { timeout: 5_000 }).toBe(401);
    await page.context().close();
    settings = undefined;
  });

  it("sets up an authenticator app with a code, shows the recovery codes once, and removes it with the password", {
    timeout: 90_000,
  }, async () => {
    const page = await openSection("factors");
    const factors = section(page, "Second factors");
    await factors.getByText("You have none yet").waitFor();
    const dialog = page.getByRole("dialog", { name: "Set up an authenticator app" });
    const secret = dialog.getByText(/^[A-Z2-7]{32}$/);
    for (const viewport of [PHONE, DESKTOP]) {
      await page.setViewportSize(viewport);
      await factors.getByRole("button", { name: "Set up an authenticator app" }).click();
      await secret.waitFor();
      await dialog.getByText(/^otpauth:\/\/totp\//).waitFor();
      await dialog.getByRole("button", { name: "Copy: Secret" }).waitFor();
      await expectUsable(page, "the authenticator app's dialog");
      if (viewport === PHONE) {
        await page.keyboard.press("Escape");
        await dialog.waitFor({ state: "hidden" });
      }
    }
    await dialog.getByRole("button", { name: "Turn on" }).click();
    await dialog.getByRole("alert").filter({ hasText: "Enter the six digits" }).waitFor();
    // The server's clock stands still in tests: a code of its time, which a session began at.
    const serverNow = Date.parse((await api<Sessions>("/v1/user/sessions")).items[0]?.createdAt ?? "");
    const code = new TOTP({ secret: Secret.fromBase32((await secret.textContent()) ?? "") }).generate({
      timestamp: serverNow,
    });
    await dialog.getByRole("textbox", { name: "Code" }).fill(code);
    await dialog.getByRole("button", { name: "Turn on" }).click();
    await dialog.getByRole("status").filter({ hasText: "Your authenticator app is on" }).waitFor();
    expect(await dialog.getByRole("list", { name: "Recovery codes" }).getByRole("listitem").count()).toBe(10);
    await expectUsable(page, "the recovery codes");
    await dialog.getByRole("button", { name: "Done" }).click();
    await dialog.waitFor({ state: "hidden" });
    const listed = await api<{ items: { id: string; kind: string }[]; recoveryCodesLeft: number }>(
      "/v1/user/factors",
    );
    expect(listed.items.map((factor) => factor.kind)).toEqual(["totp"]);
    expect(listed.recoveryCodesLeft).toBe(10);
    await factors.getByText("Recovery codes left: 10.").waitFor();
    await factors.getByText("Your authenticator app is on.").waitFor();

    await factors.getByRole("button", { name: "Remove" }).click();
    const remove = page.getByRole("dialog", { name: "Remove Authenticator app" });
    const password = remove.getByLabel("Current password");
    await password.fill("not the password at all");
    await remove.getByRole("button", { name: "Remove" }).click();
    await remove.getByRole("alert").filter({ hasText: "The current password is not right." }).waitFor();
    await expectUsable(page, "the dialog removing a factor");
    await password.fill(OWNER_PASSWORD);
    await remove.getByRole("button", { name: "Remove" }).click();
    await factors.getByRole("status").filter({ hasText: "The factor is removed." }).waitFor();
    await factors.getByText("You have none yet").waitFor();
    expect((await api<{ items: unknown[] }>("/v1/user/factors")).items).toEqual([]);
    await page.context().close();
  });

  it("lists the signed-in browsers and signs out another one, then every other", {
    timeout: 90_000,
  }, async () => {
    // Sessions of earlier tests end first: the owner's token is no session.
    await api("/v1/user/sessions", { method: "DELETE" });
    const other = await served.signIn("/app/");
    const third = await served.signIn("/app/", { viewport: PHONE });
    const page = await openSection("sessions");
    const sessions = section(page, "Sessions");
    const items = sessions.getByRole("list", { name: "Sessions" }).getByRole("listitem");
    await items.nth(2).waitFor();
    expect(await items.count()).toBe(3);
    const mine = items.filter({ hasText: "This device" });
    expect(await mine.count()).toBe(1);
    expect(await mine.getByRole("button", { name: "Sign out" }).count(), "no Sign out of this one").toBe(0);
    await expectUsable(page, "the sessions");
    const statuses = async () => [await userStatus(other), await userStatus(third)].sort();
    expect(await statuses()).toEqual([200, 200]);
    await items
      .filter({ hasNotText: "This device" })
      .first()
      .getByRole("button", { name: "Sign out" })
      .click();
    await sessions.getByRole("status").filter({ hasText: "Signed out of that session." }).waitFor();
    await items.nth(2).waitFor({ state: "detached" });
    expect((await api<Sessions>("/v1/user/sessions")).items).toHaveLength(2);
    // The server remembers a known session for a second.
    await expect.poll(statuses, { timeout: 5_000 }).toEqual([200, 401]);

    await sessions.getByRole("button", { name: "Sign out everywhere else" }).click();
    await sessions.getByRole("status").filter({ hasText: "Signed out everywhere else." }).waitFor();
    await sessions.getByText("This is the only browser signed in").waitFor();
    expect((await api<Sessions>("/v1/user/sessions")).items).toHaveLength(1);
    await expect.poll(statuses, { timeout: 5_000 }).toEqual([401, 401]);
    expect(await userStatus(page), "this browser is still signed in").toBe(200);
    for (const closing of [other, third, page]) await closing.context().close();
  });

  // Last: it changes the owner's password, which it restores at the end.
  it("changes the password, with its rules in words, signing the other browsers out", {
    timeout: 90_000,
  }, async () => {
    const newPassword = "a brand new password of the owner";
    const other = await served.signIn("/app/");
    const page = await openSection("password");
    const form = section(page, "Password");
    await form.getByText("At least 10 characters, at most 256.").waitFor();
    const submit = form.getByRole("button", { name: "Change password" });
    await form.getByLabel("Current password").fill(OWNER_PASSWORD);
    await form.getByLabel("New password", { exact: true }).fill("short");
    await submit.click();
    await form.getByRole("alert").filter({ hasText: "too short: use at least 10 characters" }).waitFor();
    await form.getByLabel("New password", { exact: true }).fill(newPassword);
    await form.getByLabel("Confirm the new password").fill(`${newPassword}!`);
    await submit.click();
    await form.getByRole("alert").filter({ hasText: "The two new passwords differ" }).waitFor();
    await expectUsable(page, "the password form, refused");
    await form.getByLabel("Confirm the new password").fill(newPassword);
    await form.getByLabel("Current password").fill("not the password at all");
    await submit.click();
    await form.getByRole("alert").filter({ hasText: "The current password is not right." }).waitFor();
    await form.getByLabel("Current password").fill(OWNER_PASSWORD);
    await submit.click();
    await form.getByRole("status").filter({ hasText: "Your other sessions are signed out." }).waitFor();
    await signedOut(other);
    expect(await userStatus(page)).toBe(200);

    /** The server's sign-in form, in a new browser, filled with `password` and sent. */
    const signInWith = async (password: string) => {
      const fresh = await browser.open("/app/", { viewport: DESKTOP });
      await fresh.waitForURL(/\/sign-in\?next=/);
      await fresh.getByRole("textbox", { name: "Email" }).fill("owner@example.com");
      await fresh.getByLabel("Password").fill(password);
      await fresh.getByRole("button", { name: "Sign in" }).click();
      return fresh;
    };
    const refused = await signInWith(OWNER_PASSWORD);
    await refused.getByRole("alert").filter({ hasText: "do not match an account" }).waitFor();
    expect(new URL(refused.url()).pathname, "the old password no longer signs in").toBe("/sign-in");
    const accepted = await signInWith(newPassword);
    await accepted.waitForURL((url) => url.pathname.startsWith("/app/"));
    await accepted.getByText("Signed in as", { exact: false }).waitFor();
    for (const closing of [refused, accepted]) await closing.context().close();

    await api("/v1/user/password", {
      method: "PUT",
      body: JSON.stringify({ currentPassword: newPassword, newPassword: OWNER_PASSWORD }),
    });
    for (const closing of [other, page]) await closing.context().close();
  });
});
