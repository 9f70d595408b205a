import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import type { Schema } from "@quire/api-types";
import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { appTestsSkipped, DESKTOP, expectUsable, PHONE, servedApp } from "../testing/browser-app.js";

interface Page_<Item> {
  items: Item[];
  count: number;
}

describe.skipIf(appTestsSkipped())("the organization's settings, in a browser", () => {
  const served = servedApp();
  const { json: api } = served;
  const org = () => served.owner().organizationId;
  const settings = (tab: string) => `/app/orgs/${org()}/settings/${tab}`;

  /** A webhook receiver on loopback: what it was sent, by path. */
  let receiver: Server;
  let receiverOrigin: string;
  const received: string[] = [];
  beforeAll(async () => {
    receiver = createServer((req, res) => {
      received.push(req.url ?? "");
      req.resume();
      res.writeHead(204).end();
    });
    await new Promise<void>((resolve) => receiver.listen(0, "127.0.0.1", resolve));
    receiverOrigin = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}`;
  });
  afterAll(() => new Promise((resolve) => receiver.close(resolve)));

  /** A refusal of the server, told in words inside `scope` (a dialog or the page): never raw JSON. */
  const expectRefusedInWords = async (scope: ReturnType<Page["getByRole"]> | Page) => {
    const refused = scope.getByRole("alert").filter({ hasText: "Something went wrong" });
    await refused.waitFor();
    expect(await refused.textContent()).not.toMatch(/[{}]/);
  };

  it("shows its sections, each deep-linked, and saves the general settings with a status; a refusal in words", {
    timeout: 120_000,
  }, async () => {
    for (const viewport of [DESKTOP, PHONE]) {
      const page = await served.signIn(settings(""), { viewport });
      // The settings' own address opens its first section.
      await page.waitForURL(/\/settings\/general$/);
      const main = page.getByRole("main");
      await main.getByRole("heading", { level: 1, name: "Settings" }).waitFor();
      const sections = main.getByRole("navigation", { name: "Settings sections" });
      const general = sections.getByRole("link", { name: "General" });
      await expect.poll(() => general.getAttribute("aria-current")).toBe("page");
      await main.getByRole("textbox", { name: "Organization name" }).waitFor();
      await expectUsable(page, "general settings");
      await page.context().close();
    }

    const page = await served.signIn(settings("general"));
    const name = page.getByRole("textbox", { name: "Organization name" });
    await name.fill("Quire Docs");
    await page.getByRole("textbox", { name: "Email domains" }).fill("example.com, example.org");
    await page.getByRole("button", { name: "Save" }).click();
    await page.getByRole("status").filter({ hasText: "Settings saved." }).waitFor();
    const saved = await api<Schema<"Organization">>(`/v1/orgs/${org()}`);
    expect(saved.title).toBe("Quire Docs");
    expect(saved.emailDomains).toEqual(["example.com", "example.org"]);
    // The shell names the organization anew.
    await page.getByRole("banner").getByRole("link", { name: "Quire Docs" }).waitFor();

    await name.fill("Q"); // shorter than the contract allows: the server's 400
    await page.getByRole("button", { name: "Save" }).click();
    await expectRefusedInWords(page);
    expect((await api<Schema<"Organization">>(`/v1/orgs/${org()}`)).title).toBe("Quire Docs");
    await page.context().close();
  });

  it("creates, edits and deletes a webhook, and shows its deliveries with Redeliver", {
    timeout: 90_000,
  }, async () => {
    const url = `${receiverOrigin}/hooks/docs`;
    const page = await served.signIn(settings("webhooks"));
    await page.getByText("There are no webhooks yet.").waitFor();
    await expectUsable(page, "webhooks, none yet");

    await page.getByRole("button", { name: "New webhook" }).click();
    const create = page.getByRole("dialog", { name: "New webhook" });
    await create.getByRole("textbox", { name: "URL" }).waitFor();
    await expectUsable(page, "the New webhook dialog");
    await create.getByRole("textbox", { name: "URL" }).fill("ftp://example.com/hook"); // not http(s): 400
    await create.getByRole("button", { name: "Create" }).click();
    await expectRefusedInWords(create);
    await create.getByRole("textbox", { name: "URL" }).fill(url);
    await create.getByRole("checkbox", { name: "space_created" }).check();
    await create.getByRole("checkbox", { name: "ping" }).check();
    await create.getByRole("button", { name: "Create" }).click();
    await page
      .getByRole("status")
      .filter({ hasText: "signing secret" })
      .getByText(/^whsec_/)
      .waitFor();
    await expect.poll(() => create.isVisible(), { message: "the dialog closes once created" }).toBe(false);
    await page.getByRole("heading", { level: 3, name: url }).waitFor();
    const [hook] = (await api<Page_<Schema<"Webhook">>>(`/v1/orgs/${org()}/webhooks`)).items;
    expect(hook?.url).toBe(url);
    expect(hook?.events).toEqual(["space_created", "ping"]);
    const hookId = hook?.id ?? "";

    await page.getByRole("button", { name: `Edit ${url}` }).click();
    const edit = page.getByRole("dialog", { name: "Edit webhook" });
    await edit.getByRole("textbox", { name: "Description" }).fill("Tells the docs team");
    await edit.getByRole("checkbox", { name: "space_created" }).uncheck();
    await edit.getByRole("button", { name: "Save" }).click();
    await page.getByText("Tells the docs team").waitFor();
    const edited = await api<Schema<"Webhook">>(`/v1/orgs/${org()}/webhooks/${hookId}`);
    expect(edited.description).toBe("Tells the docs team");
    expect(edited.events).toEqual(["ping"]);

    // Its deliveries, at an address of their own.
    await page.getByRole("link", { name: `Deliveries ${url}` }).click();
    await page.waitForURL(new RegExp(`/settings/webhooks/${hookId}$`));
    await page.getByRole("heading", { level: 2, name: `Deliveries to ${url}` }).waitFor();
    await page.getByText("Nothing has been sent to this webhook yet.").waitFor();
    await page.getByRole("button", { name: "Send a test event" }).click();
    // The served app's network policy (public addresses only) refuses the loopback receiver: the test
    // delivery is recorded as failed, with why, and nothing reaches the receiver.
    await page
      .getByRole("status")
      .filter({ hasText: /Test event sent: (Delivered|Failed)\./ })
      .waitFor();
    const row = page.getByRole("row").filter({ hasText: "ping" });
    await row.first().waitFor();
    const deliveries = async () =>
      api<Page_<Schema<"WebhookDelivery">>>(`/v1/orgs/${org()}/webhooks/${hookId}/deliveries`);
    const [tested] = (await deliveries()).items;
    const code = tested?.lastAttempt?.statusCode;
    await row
      .first()
      .getByRole("cell", { name: code === undefined ? "No answer" : String(code) })
      .waitFor();
    expect(received.length, "the receiver is reached only when the policy allows loopback").toBe(
      tested?.status === "success" ? 1 : 0,
    );
    await expectUsable(page, "a webhook's deliveries");
    await row
      .first()
      .getByRole("button", { name: /^Redeliver ping/ })
      .click();
    await page.getByRole("status").filter({ hasText: "Delivery queued again." }).waitFor();
    await page.getByRole("row").filter({ hasText: "Pending" }).waitFor();
    expect((await deliveries()).items.map((delivery) => delivery.event.type)).toEqual(["ping", "ping"]);
    // The status filter lives in the URL.
    await page.getByRole("combobox", { name: "Status" }).selectOption("pending");
    await page.waitForURL(/\?status=pending$/);
    await page.getByRole("row").filter({ hasText: "Failed" }).waitFor({ state: "detached" });
    await expect.poll(() => page.getByRole("row").count()).toBe(2); // the header and the one pending

    await page.goto(`${served.browser.origin()}${settings("webhooks")}`);
    await page.setViewportSize(PHONE);
    await page.getByRole("heading", { level: 3, name: url }).waitFor();
    await expectUsable(page, "webhooks, on a phone");
    await page.getByRole("button", { name: `Edit ${url}` }).click();
    await page.getByRole("dialog", { name: "Edit webhook" }).getByRole("textbox", { name: "URL" }).waitFor();
    await expectUsable(page, "the Edit webhook dialog, on a phone");
    await page.keyboard.press("Escape");
    await page.getByRole("button", { name: `Delete ${url}` }).click();
    const remove = page.getByRole("dialog", { name: "Delete webhook" });
    await remove.waitFor();
    await expectUsable(page, "the Delete webhook dialog, on a phone");
    await remove.getByRole("button", { name: "Delete" }).click();
    await page.getByText("There are no webhooks yet.").waitFor();
    expect((await api<Page_<Schema<"Webhook">>>(`/v1/orgs/${org()}/webhooks`)).items).toEqual([]);
    await page.context().close();
  });

  it("lists the audit log with its filters and pages in the URL; a bad cursor told in words", {
    timeout: 90_000,
  }, async () => {
    // More spaces than a page shows: the space.created events need a second page.
    for (let n = 1; n <= 26; n++)
      await api(`/v1/orgs/${org()}/spaces`, {
        method: "POST",
        body: JSON.stringify({ title: `Space ${n}` }),
      });
    const actions = await api<{ items: Schema<"AuditEventAction">[] }>(
      `/v1/orgs/${org()}/audit-event-actions`,
    );
    const created = actions.items.find((action) => action.id === "space.created");
    expect(created).toBeDefined();
    const me = await api<Schema<"User">>("/v1/user");

    const page = await served.signIn(settings("audit-log"));
    const main = page.getByRole("main");
    await main.getByRole("table", { name: "Audit log" }).waitFor();
    await expectUsable(page, "the audit log");
    await main.getByRole("combobox", { name: "Action" }).selectOption({ label: created?.label ?? "" });
    await main.getByRole("combobox", { name: "Actor" }).selectOption({ label: me.displayName });
    await main.getByRole("button", { name: "Apply filters" }).click();
    await page.waitForURL((url) => url.searchParams.get("action") === "space.created");
    expect(new URL(page.url()).searchParams.get("actor")).toBe(me.id);
    await main.getByRole("status").filter({ hasText: "26 events match." }).waitFor();
    await expect.poll(() => main.getByRole("row").count()).toBe(26); // a header and a page of 25
    await main.getByRole("navigation", { name: "Pages" }).getByRole("link", { name: "Next page" }).click();
    await page.waitForURL(
      (url) => url.searchParams.has("page") && url.searchParams.get("action") === "space.created",
    );
    await main.getByRole("link", { name: "First page" }).waitFor();
    await main.getByRole("table", { name: "Audit log" }).waitFor(); // the second page, once loaded
    await expect.poll(() => main.getByRole("row").count()).toBe(2);
    await expectUsable(page, "the audit log's second page");
    // The back button comes back to the first page, its filters still chosen.
    await page.goBack();
    await page.waitForURL((url) => !url.searchParams.has("page"));
    await main.getByRole("link", { name: "First page" }).waitFor({ state: "detached" });
    expect(await main.getByRole("combobox", { name: "Action" }).inputValue()).toBe("space.created");

    await main.getByLabel("From", { exact: true }).fill("2000-01-01");
    await main.getByLabel("To", { exact: true }).fill("2000-01-02");
    await main.getByRole("button", { name: "Apply filters" }).click();
    await main.getByRole("status").filter({ hasText: "0 events match." }).waitFor();
    expect(new URL(page.url()).searchParams.get("to")).toBe("2000-01-02");

    await page.goto(`${served.browser.origin()}${settings("audit-log")}?page=not-a-cursor`);
    await expectRefusedInWords(page.getByRole("main"));
    await page.setViewportSize(PHONE);
    await page.goto(`${served.browser.origin()}${settings("audit-log")}`);
    await main.getByRole("table", { name: "Audit log" }).waitFor();
    await expectUsable(page, "the audit log, on a phone");
    await page.context().close();
  });

  it("adds, edits and deletes SAML and OpenID Connect providers, never showing a secret back", {
    timeout: 90_000,
  }, async () => {
    const page = await served.signIn(settings("sso"));
    const main = page.getByRole("main");
    await main.getByText("There are no SAML providers.").waitFor();
    await expectUsable(page, "single sign-on, none yet");

    await main.getByRole("button", { name: "New SAML provider" }).click();
    const saml = page.getByRole("dialog", { name: "New SAML provider" });
    await saml.getByRole("textbox", { name: "Label" }).fill("Okta");
    await saml
      .getByRole("textbox", { name: "Identity provider's entity ID" })
      .fill("https://okta.example.com");
    await saml
      .getByRole("textbox", { name: "Identity provider's certificate (PEM)" })
      .fill("not a certificate");
    await expectUsable(page, "the New SAML provider dialog");
    await saml.getByRole("button", { name: "Create" }).click();
    await expectRefusedInWords(saml);
    await saml.getByRole("textbox", { name: "Identity provider's certificate (PEM)" }).fill("");
    await saml.getByRole("button", { name: "Create" }).click();
    await main.getByRole("heading", { level: 4, name: "Okta" }).waitFor();
    const samlList = async () => (await api<Page_<Schema<"SamlProvider">>>(`/v1/orgs/${org()}/saml`)).items;
    const [okta] = await samlList();
    expect(okta).toMatchObject({ label: "Okta", entityID: "https://okta.example.com", status: "pending" });
    await main.getByText(okta?.service.acsURL ?? "?").waitFor();

    await main.getByRole("button", { name: "Edit Okta" }).click();
    const editSaml = page.getByRole("dialog", { name: "Edit SAML provider" });
    await editSaml.getByRole("textbox", { name: "Label" }).fill("Okta EU");
    await editSaml
      .getByRole("combobox", { name: "Role of people signing in for the first time" })
      .selectOption("edit");
    await editSaml.getByRole("button", { name: "Save" }).click();
    await main.getByRole("heading", { level: 4, name: "Okta EU" }).waitFor();
    expect((await samlList())[0]).toMatchObject({ label: "Okta EU", defaultRole: "edit" });

    await main.getByRole("button", { name: "New OpenID Connect provider" }).click();
    const oidc = page.getByRole("dialog", { name: "New OpenID Connect provider" });
    await oidc.getByRole("textbox", { name: "Label" }).fill("Keycloak");
    await oidc.getByRole("textbox", { name: "Issuer" }).fill("https://id.example.com/realms/docs");
    await oidc.getByRole("textbox", { name: "Client ID" }).fill("quire");
    await oidc.getByLabel("Client secret").fill("a very secret value");
    await oidc.getByRole("button", { name: "Create" }).click();
    await main.getByRole("heading", { level: 4, name: "Keycloak" }).waitFor();
    await main.getByText("Set (hidden)").waitFor();
    expect(await page.content(), "the secret leaves the page with its dialog").not.toContain(
      "a very secret value",
    );
    const oidcList = async () =>
      (await api<Page_<Schema<"OidcProvider">>>(`/v1/orgs/${org()}/oidc-providers`)).items;
    expect((await oidcList())[0]).toMatchObject({
      label: "Keycloak",
      clientId: "quire",
      clientSecretSet: true,
    });
    await main.getByRole("button", { name: "Edit Keycloak" }).click();
    const editOidc = page.getByRole("dialog", { name: "Edit OpenID Connect provider" });
    expect(await editOidc.getByLabel("Client secret").inputValue(), "the secret is never shown back").toBe(
      "",
    );
    expect(await page.content()).not.toContain("a very secret value");
    await page.setViewportSize(PHONE);
    await expectUsable(page, "the Edit OpenID Connect provider dialog, on a phone");
    await editOidc.getByRole("textbox", { name: "Scopes (separated by spaces)" }).fill("openid email");
    await editOidc.getByRole("button", { name: "Save" }).click();
    await editOidc.waitFor({ state: "hidden" });
    expect((await oidcList())[0]).toMatchObject({ scopes: ["openid", "email"], clientSecretSet: true });
    await expectUsable(page, "single sign-on, on a phone");

    for (const [label, list] of [
      ["Okta EU", samlList],
      ["Keycloak", oidcList],
    ] as const) {
      await main.getByRole("button", { name: `Delete ${label}` }).click();
      const remove = page.getByRole("dialog", { name: "Delete identity provider" });
      await remove.getByRole("button", { name: "Delete" }).click();
      await main.getByRole("heading", { level: 4, name: label }).waitFor({ state: "detached" });
      expect(await list()).toEqual([]);
    }
    await page.context().close();
  });

  it("adds and deletes custom fields and OpenAPI specifications; refusals in words", {
    timeout: 90_000,
  }, async () => {
    const page = await served.signIn(settings("custom-fields"));
    const main = page.getByRole("main");
    await main.getByText("There are no custom fields yet.").waitFor();
    await expectUsable(page, "custom fields, none yet");
    await main.getByRole("button", { name: "New custom field" }).click();
    const create = page.getByRole("dialog", { name: "New custom field" });
    await create.getByRole("textbox", { name: "Name" }).fill("Target Audience"); // not a machine name: 400
    await create.getByRole("combobox", { name: "Type" }).selectOption({ label: "One of a list" });
    await create.getByRole("textbox", { name: "Options (one a line)" }).fill("Developers\nAdmins");
    await expectUsable(page, "the New custom field dialog");
    await create.getByRole("button", { name: "Create" }).click();
    await expectRefusedInWords(create);
    await create.getByRole("textbox", { name: "Name" }).fill("audience");
    await create.getByRole("textbox", { name: "Title" }).fill("Audience");
    await create.getByRole("button", { name: "Create" }).click();
    await main.getByRole("heading", { level: 3, name: "Audience" }).waitFor();
    const fields = async () =>
      (await api<Page_<Schema<"CustomField">>>(`/v1/orgs/${org()}/custom-fields`)).items;
    expect((await fields())[0]).toMatchObject({
      name: "audience",
      title: "Audience",
      type: "select:single",
      options: ["Developers", "Admins"],
    });
    await page.setViewportSize(PHONE);
    await expectUsable(page, "custom fields, on a phone");
    await main.getByRole("button", { name: "Delete Audience" }).click();
    const remove = page.getByRole("dialog", { name: "Delete custom field" });
    await expectUsable(page, "the Delete custom field dialog, on a phone");
    await remove.getByRole("button", { name: "Delete" }).click();
    await main.getByText("There are no custom fields yet.").waitFor();
    expect(await fields()).toEqual([]);

    await page
      .getByRole("navigation", { name: "Settings sections" })
      .getByRole("link", { name: "OpenAPI specifications" })
      .click();
    await page.waitForURL(/\/settings\/openapi$/);
    await main.getByText("There are no OpenAPI specifications yet.").waitFor();
    await expectUsable(page, "OpenAPI specifications, on a phone");
    await main.getByRole("button", { name: "Add a specification" }).click();
    const add = page.getByRole("dialog", { name: "Add a specification" });
    await add.getByRole("radio", { name: "Text (JSON or YAML)" }).check();
    const text = JSON.stringify({ openapi: "3.0.3", info: { title: "Pets", version: "1" }, paths: {} });
    await add.getByRole("textbox", { name: "The specification" }).fill(text);
    await add.getByRole("textbox", { name: "Slug" }).fill("pets api"); // a space: 400
    await expectUsable(page, "the Add a specification dialog, on a phone");
    await add.getByRole("button", { name: "Add" }).click();
    await expectRefusedInWords(add);
    await add.getByRole("textbox", { name: "Slug" }).fill("pets-api");
    await add.getByRole("button", { name: "Add", exact: true }).click();
    await main.getByRole("heading", { level: 3, name: "pets-api" }).waitFor();
    const specs = async () => (await api<Page_<Schema<"OpenAPISpec">>>(`/v1/orgs/${org()}/openapi`)).items;
    expect((await specs()).map((spec) => spec.slug)).toEqual(["pets-api"]);
    // The API's urls.app of a specification leads to this section.
    await page.goto((await specs())[0]?.urls.app ?? "");
    await page.waitForURL(new RegExp(`/app/orgs/${org()}/settings/openapi$`));
    await main.getByRole("button", { name: "Delete pets-api" }).click();
    await page
      .getByRole("dialog", { name: "Delete specification" })
      .getByRole("button", { name: "Delete" })
      .click();
    await main.getByText("There are no OpenAPI specifications yet.").waitFor();
    expect(await specs()).toEqual([]);
    await page.context().close();
  });

  it("lists and creates translation settings; a refusal in words", { timeout: 60_000 }, async () => {
    const page = await served.signIn(settings("translations"));
    const main = page.getByRole("main");
    await main.getByText("There are no translation settings yet.").waitFor();
    await expectUsable(page, "translations, none yet");
    await main.getByRole("button", { name: "New translation settings" }).click();
    const create = page.getByRole("dialog", { name: "New translation settings" });
    await create.getByRole("checkbox", { name: "French" }).check();
    await create.getByRole("checkbox", { name: "German" }).check();
    await expectUsable(page, "the New translation settings dialog");
    await create.getByRole("button", { name: "Create" }).click(); // no title: 400
    await expectRefusedInWords(create);
    await create.getByRole("textbox", { name: "Title" }).fill("Docs in Europe");
    await create.getByRole("button", { name: "Create" }).click();
    await main.getByRole("heading", { level: 3, name: "Docs in Europe" }).waitFor();
    await main.getByText("French, German").waitFor();
    const [created] = (await api<Page_<Schema<"TranslationSettings">>>(`/v1/orgs/${org()}/translations`))
      .items;
    expect(created).toMatchObject({ title: "Docs in Europe", languages: ["fr", "de"] });
    await page.setViewportSize(PHONE);
    await expectUsable(page, "translations, on a phone");
    await page.context().close();
  });

  it("installs and uninstalls an integration, each read back through the API", {
    timeout: 90_000,
  }, async () => {
    const name = `weather-${Date.now()}`;
    await served.post(`/v1/integrations/${name}`, {
      title: "Weather",
      description: "Shows the weather",
      scopes: ["space:content:read"],
      script: "export default {};",
      organization: org(),
    });
    const mine = async () =>
      (await api<Page_<Schema<"Installation">>>(`/v1/integrations/${name}/installations`)).items.filter(
        (installation) => installation.target.organization === org(),
      );

    const page = await served.signIn(settings("integrations"));
    const main = page.getByRole("main");
    await main.getByText("No integration is installed yet.").waitFor();
    await main.getByRole("heading", { level: 4, name: "Weather" }).waitFor();
    await expectUsable(page, "integrations, none installed");
    await main.getByRole("button", { name: "Install Weather" }).click();
    await main.getByRole("button", { name: "Uninstall Weather" }).waitFor();
    const [installed] = await mine();
    expect(installed).toMatchObject({ target: { organization: org() } });
    await expectUsable(page, "integrations, one installed");
    // The API's urls.app of the installation and of the integration lead here.
    for (const url of [installed?.urls.app, `${served.browser.origin()}/app/integrations/${name}`]) {
      await page.goto(url ?? "");
      await page.waitForURL(new RegExp(`/app/orgs/${org()}/settings/integrations$`));
      await main.getByRole("button", { name: "Uninstall Weather" }).waitFor();
    }

    await page.setViewportSize(PHONE);
    await expectUsable(page, "integrations, on a phone");
    await main.getByRole("button", { name: "Uninstall Weather" }).click();
    const uninstall = page.getByRole("dialog", { name: "Uninstall integration" });
    await expectUsable(page, "the Uninstall integration dialog, on a phone");
    await page.setViewportSize(DESKTOP);
    await expectUsable(page, "the Uninstall integration dialog");
    await uninstall.getByRole("button", { name: "Uninstall" }).click();
    await main.getByText("No integration is installed yet.").waitFor();
    await main.getByRole("button", { name: "Install Weather" }).waitFor();
    expect(await mine()).toEqual([]);
    await page.context().close();
  });

  it("tells a member the API refuses (403) in words, without breaking the screen", {
    timeout: 120_000,
  }, async () => {
    const page = await served.signIn(settings("general"));
    // Only the owner can sign in here: the API's answer to someone who is not an admin stands in for theirs.
    await page.route(/\/v1\/orgs\/[^/]+\/webhooks(\?|$)/, (route) =>
      route.fulfill({
        status: 403,
        contentType: "application/json",
        body: JSON.stringify({
          error: {
            code: 403,
            type: "forbidden",
            message: "The caller's role does not allow this operation.",
          },
        }),
      }),
    );
    await page
      .getByRole("navigation", { name: "Settings sections" })
      .getByRole("link", { name: "Webhooks" })
      .click();
    await page.getByRole("alert").filter({ hasText: "You are not allowed to see this." }).waitFor();
    await page.getByRole("heading", { level: 1, name: "Settings" }).waitFor();
    await expectUsable(page, "webhooks refused");
    await page.context().close();
  });
});
