import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { generateSecretKey } from "../auth/secret-key.js";
import { toJson } from "../db/codecs.js";
import { createFetcher, type NetworkPolicy, publicAddressesOnly } from "../net/fetch.js";
import {
  startOpenIdProvider,
  type TestOidcAccount,
  type TestOpenIdProvider,
} from "../testing/oidc-provider.js";
import { sealClientSecret } from "./client-secret.js";
import { finishOidcLogin, OidcRefused, startOidcLogin } from "./login.js";
import type { OidcProviderTable } from "./tables.js";

const REDIRECT = "http://quire.test/sso/oidc/p1/callback";
const OTHER_REDIRECT = "http://quire.test/sso/oidc/p2/callback";
const loopback: NetworkPolicy = { allowedPrivateAddresses: ["127.0.0.1"] };
const server = { secretKey: generateSecretKey(), fetcher: createFetcher(loopback), network: loopback };

let op: TestOpenIdProvider;

beforeAll(async () => {
  op = await startOpenIdProvider({
    clients: [
      { clientId: "quire", clientSecret: "quire-secret", redirectUris: [REDIRECT] },
      { clientId: "other", clientSecret: "other-secret", redirectUris: [OTHER_REDIRECT] },
    ],
  });
});
afterAll(() => op.close());

function providerRow(id: string, clientId: string, clientSecret: string): OidcProviderTable {
  return {
    id,
    organization_id: "org",
    label: "Test",
    issuer: op.issuer,
    client_id: clientId,
    client_secret: sealClientSecret(server.secretKey, id, clientSecret),
    scopes: toJson(["openid", "email", "profile"]),
    default_team_id: null,
    default_role: "read",
    created_at: "2026-01-01T00:00:00.000Z",
  };
}

const quire = () => providerRow("p1", "quire", "quire-secret");

/** Starts a sign-in as a new account with `claims`, up to the browser's return to the redirect URL. */
async function signedIn(claims: TestOidcAccount, provider = quire(), redirect = REDIRECT) {
  const subject = op.addAccount(claims);
  const { url, pending } = await startOidcLogin(provider, server, redirect);
  const callback = await op.signIn(url, subject);
  return { subject, url: new URL(url), pending, callback };
}

/** The reason of the refusal `work` ends in, then what caused it: openid-client's errors, and theirs. */
async function refusal(work: Promise<unknown>): Promise<string> {
  const err = await work.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(OidcRefused);
  const words = [(err as OidcRefused).reason];
  for (let cause = (err as Error).cause; cause instanceof Error; cause = cause.cause)
    words.push(cause.message, "error" in cause ? String(cause.error) : "");
  return words.join(" ");
}

describe("OpenID Connect sign-in against a real provider", () => {
  it("signs in with the authorization code, PKCE, state and nonce: the verified email and name", async () => {
    const { subject, url, pending, callback } = await signedIn({
      email: "ada@example.com",
      email_verified: true,
      name: "Ada Lovelace",
    });
    expect(url.origin).toBe(op.issuer);
    expect(Object.fromEntries(url.searchParams)).toMatchObject({
      client_id: "quire",
      redirect_uri: REDIRECT,
      response_type: "code",
      scope: "openid email profile",
      state: pending.state,
      nonce: pending.nonce,
      code_challenge_method: "S256",
    });
    expect(`${callback.origin}${callback.pathname}`).toBe(REDIRECT);
    expect(callback.searchParams.get("code")).toBeTruthy();

    const identity = await finishOidcLogin(quire(), server, callback, pending);
    expect(identity).toEqual({ email: "ada@example.com", name: "Ada Lovelace", subject, issuer: op.issuer });
    // The code is spent: played again, the answer is refused.
    expect(await refusal(finishOidcLogin(quire(), server, callback, pending))).toMatch(/invalid_grant/);
  });

  it("refuses a mismatched state, nonce or PKCE verifier", async () => {
    const account = { email: "bob@example.com", email_verified: true };
    const forState = await signedIn(account);
    expect(
      await refusal(
        finishOidcLogin(quire(), server, forState.callback, { ...forState.pending, state: "forged" }),
      ),
    ).toMatch(/state/);
    const forNonce = await signedIn(account);
    await refusal(
      finishOidcLogin(quire(), server, forNonce.callback, { ...forNonce.pending, nonce: "forged" }),
    );
    const forVerifier = await signedIn(account);
    expect(
      await refusal(
        finishOidcLogin(quire(), server, forVerifier.callback, {
          ...forVerifier.pending,
          codeVerifier: "a".repeat(43),
        }),
      ),
    ).toMatch(/invalid_grant/);
  });

  it("refuses an email that is not verified, or not given", async () => {
    for (const claims of [
      { email: "eve@example.com", email_verified: false },
      { email: "eve@example.com" },
    ]) {
      const { callback, pending } = await signedIn(claims);
      expect(await refusal(finishOidcLogin(quire(), server, callback, pending))).toMatch(/verified/);
    }
    const { callback, pending } = await signedIn({ email_verified: true, name: "No Address" });
    expect(await refusal(finishOidcLogin(quire(), server, callback, pending))).toMatch(/email/);
  });

  it("refuses the answer the provider gave another client", async () => {
    const other = providerRow("p2", "other", "other-secret");
    const { callback, pending } = await signedIn(
      { email: "mal@example.com", email_verified: true },
      other,
      OTHER_REDIRECT,
    );
    expect(await refusal(finishOidcLogin(quire(), server, callback, pending))).toMatch(/invalid_grant/);
  });

  it("refuses an error answer, and a provider the network policy does not let the server reach", async () => {
    const { pending } = await startOidcLogin(quire(), server, REDIRECT);
    const denied = new URL(`${REDIRECT}?error=access_denied&state=${pending.state}`);
    expect(await refusal(finishOidcLogin(quire(), server, denied, pending))).toMatch(/access_denied/);

    // Plain http only where the server may reach private addresses; and then only those allowed.
    const strict = { ...server, fetcher: createFetcher(publicAddressesOnly), network: publicAddressesOnly };
    expect(await refusal(startOidcLogin(quire(), strict, REDIRECT))).toMatch(/discovery .*HTTPS/);
    const elsewhere: NetworkPolicy = { allowedPrivateAddresses: ["10.0.0.0/8"] };
    const unreachable = { ...server, fetcher: createFetcher(elsewhere), network: elsewhere };
    expect(await refusal(startOidcLogin(quire(), unreachable, REDIRECT))).toMatch(
      /discovery .*127\.0\.0\.1 is not allowed/,
    );
  });
});
