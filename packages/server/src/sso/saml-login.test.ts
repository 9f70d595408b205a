import { inflateRawSync } from "node:zlib";
import { beforeAll, describe, expect, it } from "vitest";
import { createTestIdp, createTestIdpKey, type TestIdp, type TestIdpResponse } from "../testing/saml-idp.js";
import { SamlRefused, type SamlService, samlLoginRequest, verifySamlResponse } from "./saml-login.js";

const service: SamlService = {
  entityID: "https://quire.test/sso/saml/prov_1/metadata",
  acsURL: "https://quire.test/sso/saml/prov_1/acs",
};
const now = new Date("2026-03-01T12:00:00Z");
const minutes = (count: number) => new Date(now.getTime() + count * 60_000);

let idp: TestIdp;
beforeAll(() => {
  idp = createTestIdp({ entityId: "https://idp.test/metadata" });
});

/** A response our IdP would send to request `_request` now, changed by `options`. */
function respond(options: Partial<TestIdpResponse> = {}): string {
  return idp.respond({
    destination: service.acsURL,
    recipient: service.acsURL,
    audience: service.entityID,
    inResponseTo: "_request",
    email: "Ada.Lovelace@Example.com",
    issueInstant: now,
    notBefore: minutes(-1),
    notOnOrAfter: minutes(5),
    sign: "assertion",
    attributes: { first_name: "Ada", last_name: "Lovelace" },
    ...options,
  });
}

/** Request ids issued and not yet used, as the lead's store keeps them. */
function requests(...ids: string[]) {
  const pending = new Set(ids);
  return async (id: string) => pending.delete(id);
}

function verify(samlResponse: string, expectsRequest = requests("_request"), at = now) {
  return verifySamlResponse({
    samlResponse,
    provider: { entityId: idp.entityId, certificate: idp.certificate },
    service,
    now: at,
    expectsRequest,
  });
}

async function refusal(result: Promise<unknown>): Promise<string> {
  const error = await result.then(
    () => undefined,
    (error: unknown) => error,
  );
  expect(error).toBeInstanceOf(SamlRefused);
  return (error as SamlRefused).reason;
}

describe("verifySamlResponse", () => {
  it.each(["assertion", "response"] as const)("takes a response whose %s is signed", async (sign) => {
    const identity = await verify(respond({ sign }));
    expect(identity).toEqual({
      email: "ada.lovelace@example.com",
      firstName: "Ada",
      lastName: "Lovelace",
      assertionId: expect.stringMatching(/^_/),
      notOnOrAfter: new Date(minutes(5).getTime() + 60_000),
    });
  });

  it("gives the same assertion id each time it reads a response, for the caller to refuse a replay", async () => {
    const response = respond();
    const first = await verify(response);
    const second = await verify(response, requests("_request"));
    expect(second.assertionId).toBe(first.assertionId);
  });

  it("takes a clock a little off the identity provider's", async () => {
    await expect(verify(respond(), requests("_request"), minutes(5.5))).resolves.toBeDefined();
    await expect(verify(respond({ notBefore: minutes(0.5) }))).resolves.toBeDefined();
  });

  it("refuses a response signed by another key", async () => {
    expect(await refusal(verify(respond({ signWith: createTestIdpKey() })))).toBe("signature");
    expect(await refusal(verify(respond({ sign: "response", signWith: createTestIdpKey() })))).toBe(
      "signature",
    );
  });

  it("refuses an unsigned response", async () => {
    expect(await refusal(verify(respond({ sign: "none" })))).toBe("signature");
  });

  it("refuses a signed response changed after signing", async () => {
    const xml = Buffer.from(respond({ sign: "response" }), "base64").toString("utf8");
    const tampered = xml.replace("Ada.Lovelace@Example.com", "eve@example.com");
    expect(tampered).not.toBe(xml);
    expect(await refusal(verify(Buffer.from(tampered).toString("base64")))).toBe("signature");
  });

  it.each(["sibling", "inside", "same-id", "moved", "response"] as const)(
    "refuses a signature-wrapped response (%s)",
    async (shape) => {
      const genuine = respond({ sign: shape === "response" ? "response" : "assertion" });
      await expect(verify(genuine)).resolves.toMatchObject({ email: "ada.lovelace@example.com" });
      const forged = idp.wrap(genuine, { email: "eve@example.com", shape });
      expect(await refusal(verify(forged))).toBe("signature");
    },
  );

  it("reads the NameID whole, comments and all", async () => {
    // c14n drops comments, so a comment splitting a signed NameID leaves its signature valid.
    const xml = Buffer.from(respond({ email: "ada@example.com.evil.test" }), "base64").toString("utf8");
    const split = xml.replace("ada@example.com.evil.test", "ada@example.com<!---->.evil.test");
    const identity = await verify(Buffer.from(split).toString("base64"));
    expect(identity.email).toBe("ada@example.com.evil.test");
  });

  it("refuses another issuer", async () => {
    expect(await refusal(verify(respond({ issuer: "https://other-idp.test/metadata" })))).toBe("issuer");
  });

  it("refuses another audience", async () => {
    expect(await refusal(verify(respond({ audience: "https://other-sp.test/metadata" })))).toBe("audience");
  });

  it("refuses another recipient or destination", async () => {
    const elsewhere = "https://other-sp.test/acs";
    expect(await refusal(verify(respond({ recipient: elsewhere })))).toBe("recipient");
    expect(await refusal(verify(respond({ destination: elsewhere })))).toBe("destination");
  });

  it("refuses an expired assertion", async () => {
    const expired = respond({
      issueInstant: minutes(-10),
      notBefore: minutes(-11),
      notOnOrAfter: minutes(-1),
    });
    expect(await refusal(verify(expired))).toBe("expired");
  });

  it("refuses an assertion not yet valid", async () => {
    expect(await refusal(verify(respond({ notBefore: minutes(2) })))).toBe("not-yet-valid");
  });

  it("refuses an answer to a request it did not make", async () => {
    expect(await refusal(verify(respond({ inResponseTo: "_forged" })))).toBe("unknown-request");
  });

  it("refuses an IdP-initiated response, without InResponseTo", async () => {
    expect(await refusal(verify(respond({ inResponseTo: undefined })))).toBe("unsolicited");
  });

  it("refuses a second answer to the same request", async () => {
    const expectsRequest = requests("_request");
    await verify(respond(), expectsRequest);
    expect(await refusal(verify(respond(), expectsRequest))).toBe("unknown-request");
  });

  it("refuses a NameID that is not an email address", async () => {
    expect(await refusal(verify(respond({ email: "ada" })))).toBe("name-id");
    const persistent = "urn:oasis:names:tc:SAML:2.0:nameid-format:persistent";
    expect(await refusal(verify(respond({ nameIdFormat: persistent })))).toBe("name-id");
  });

  it("refuses what is not a SAML response", async () => {
    expect(await refusal(verify(Buffer.from("<html>").toString("base64")))).toBe("malformed");
    expect(await refusal(verify("not base64 XML"))).toBe("malformed");
    expect(await refusal(verify(""))).toBe("malformed");
  });
});

describe("samlLoginRequest", () => {
  it("redirects to the provider's sign-in URL with an AuthnRequest carrying the request id", async () => {
    const { url, requestId } = await samlLoginRequest({
      provider: { ssoURL: "https://idp.test/sso?tenant=quire" },
      service,
    });
    const target = new URL(url);
    expect(`${target.origin}${target.pathname}`).toBe("https://idp.test/sso");
    expect(target.searchParams.get("tenant")).toBe("quire");
    const request = inflateRawSync(
      Buffer.from(target.searchParams.get("SAMLRequest") ?? "", "base64"),
    ).toString("utf8");
    expect(requestId).toMatch(/^_[0-9a-f]{40}$/);
    expect(request).toContain(`ID="${requestId}"`);
    expect(request).toContain(`AssertionConsumerServiceURL="${service.acsURL}"`);
    expect(request).toContain(`<saml:Issuer>${service.entityID}</saml:Issuer>`);
    expect(request).toContain('Format="urn:oasis:names:tc:SAML:1.1:nameid-format:emailAddress"');
  });

  it("uses the request id it is given", async () => {
    const { url, requestId } = await samlLoginRequest({
      provider: { ssoURL: "https://idp.test/sso" },
      service,
      requestId: "_chosen",
    });
    expect(requestId).toBe("_chosen");
    const encoded = new URL(url).searchParams.get("SAMLRequest") ?? "";
    expect(inflateRawSync(Buffer.from(encoded, "base64")).toString("utf8")).toContain('ID="_chosen"');
  });
});
