import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadApiSpec } from "../spec.js";
import { browserMissing, inBrowser } from "../testing/browser.js";
import { createTestApp, type TestApp } from "../testing/harness.js";

const require = createRequire(import.meta.url);

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

describe("the contract and its reference", () => {
  it("serves the committed contract as JSON and YAML, without a token", async () => {
    const json = await t.request.get("/openapi.json").expect(200).expect("content-type", /json/);
    expect(json.body).toEqual(loadApiSpec());
    const yaml = await t.request.get("/openapi.yaml").expect(200).expect("content-type", /yaml/);
    expect(yaml.text).toBe(readFileSync(require.resolve("@quire/spec/openapi.yaml"), "utf8"));
  });

  it("serves /docs with every script and style from this server", async () => {
    const page = await t.request.get("/docs/").expect(200).expect("content-type", /html/);
    expect(page.text).toContain("<title>Quire API reference</title>");
    const assets = [...page.text.matchAll(/(?:src|href)="([^"]+)"/g)].map(([, url]) => url as string);
    expect(assets.length).toBeGreaterThanOrEqual(3);
    for (const asset of assets) {
      expect(asset).not.toMatch(/^(https?:)?\/\//);
      await t.request.get(new URL(asset, "http://quire.test/docs/").pathname).expect(200);
    }
  });
});

describe.skipIf(browserMissing)("the reference in a browser", () => {
  const browser = inBrowser(() => t.app);

  it("renders the operations of the contract", { timeout: 60_000 }, async () => {
    const operation = loadApiSpec().paths["/v1/orgs/{organizationId}"]?.get as { summary: string };
    const summary = operation.summary;
    const page = await browser.open("/docs/");
    // Swagger UI writes each operation's summary into the page once its script has run; it renders
    // only the tags in view, so the one looked for is among the first.
    await page.locator(".opblock-summary-description", { hasText: summary }).waitFor();
  });
});
