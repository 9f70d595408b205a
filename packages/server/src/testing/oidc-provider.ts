import { randomUUID } from "node:crypto";
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { exportJWK, generateKeyPair } from "jose";
import { Provider } from "oidc-provider";

/** What a test's OpenID provider says about a person: each claim as given, absent when omitted. */
export interface TestOidcAccount {
  email?: string;
  email_verified?: boolean;
  name?: string;
}

/** A client registered at the provider (confidential: it authenticates with its secret). */
export interface TestOidcClient {
  clientId: string;
  clientSecret: string;
  redirectUris: string[];
}

export interface TestOpenIdProvider {
  /** `http://127.0.0.1:<port>`: its discovery document is under `/.well-known/openid-configuration`. */
  issuer: string;
  /** Registers a person; returns their subject (`sub`). */
  addAccount(account: TestOidcAccount): string;
  /**
   * Plays the browser from `authorizationUrl` on, signed in as `subject` and consenting to every scope
   * asked: the URL the provider finally redirects to, off the provider (the client's redirect URI, with
   * `code` and `state`, or `error`).
   */
  signIn(authorizationUrl: string, subject: string): Promise<URL>;
  close(): Promise<void>;
}

/**
 * A certified OpenID provider (`oidc-provider`) on loopback, with `clients`, PKCE required, and the
 * email and profile claims in the ID token as Keycloak, Authentik and Google put them. Its interaction
 * (login and consent pages) is replaced by one URL that signs in the account its `account` parameter
 * names, so that a test needs no browser.
 */
export async function startOpenIdProvider({
  clients,
}: {
  clients: readonly TestOidcClient[];
}): Promise<TestOpenIdProvider> {
  const accounts = new Map<string, TestOidcAccount>();
  let provider: Provider | undefined;

  const interact = async (req: IncomingMessage, res: ServerResponse, accountId: string) => {
    if (!provider) throw new Error("The provider is not started yet.");
    const details = await provider.interactionDetails(req, res);
    const grant = new provider.Grant({ accountId, clientId: details.params.client_id });
    grant.addOIDCScope(details.params.scope);
    const grantId = await grant.save();
    await provider.interactionFinished(
      req,
      res,
      { login: { accountId }, consent: { grantId } },
      { mergeWithLastSubmission: false },
    );
  };

  const server = createServer((req, res) => {
    const url = new URL(req.url ?? "/", "http://127.0.0.1");
    if (!provider) {
      res.writeHead(503).end();
    } else if (url.pathname.startsWith("/interaction/")) {
      interact(req, res, url.searchParams.get("account") ?? "").catch((err: unknown) => {
        res.writeHead(500).end(String(err));
      });
    } else {
      provider.callback()(req, res);
    }
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const issuer = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  const { privateKey } = await generateKeyPair("RS256", { extractable: true });
  provider = new Provider(issuer, {
    clients: clients.map((c) => ({
      client_id: c.clientId,
      client_secret: c.clientSecret,
      redirect_uris: c.redirectUris,
      grant_types: ["authorization_code"],
      response_types: ["code"],
    })),
    jwks: { keys: [{ ...(await exportJWK(privateKey)), alg: "RS256", use: "sig", kid: "test" }] },
    cookies: { keys: [randomUUID()] },
    claims: { openid: ["sub"], email: ["email", "email_verified"], profile: ["name"] },
    // Claims of the scopes asked go into the ID token, not only to the userinfo endpoint.
    conformIdTokenClaims: false,
    pkce: { required: () => true },
    // Explicit lifetimes: oidc-provider otherwise notes on each use that its defaults were taken.
    ttl: {
      AccessToken: 600,
      AuthorizationCode: 60,
      Grant: 600,
      IdToken: 600,
      Interaction: 600,
      Session: 600,
    },
    features: { devInteractions: { enabled: false } },
    interactions: { url: (_ctx: unknown, interaction: { uid: string }) => `/interaction/${interaction.uid}` },
    findAccount: (_ctx: unknown, sub: string) => {
      const account = accounts.get(sub);
      return account && { accountId: sub, claims: () => ({ sub, ...account }) };
    },
  });

  return {
    issuer,
    addAccount(account) {
      const subject = randomUUID();
      accounts.set(subject, account);
      return subject;
    },
    async signIn(authorizationUrl, subject) {
      const cookies = new Map<string, string>();
      let url = new URL(authorizationUrl);
      for (let hop = 0; hop < 10; hop++) {
        if (url.origin !== issuer) return url;
        if (url.pathname.startsWith("/interaction/")) url.searchParams.set("account", subject);
        const cookie = [...cookies].map(([name, value]) => `${name}=${value}`).join("; ");
        const response = await fetch(url, { redirect: "manual", headers: { cookie } });
        for (const set of response.headers.getSetCookie()) {
          const [pair = ""] = set.split(";");
          const at = pair.indexOf("=");
          cookies.set(pair.slice(0, at), pair.slice(at + 1));
        }
        const location = response.headers.get("location");
        if (!location) throw new Error(`The provider answered ${response.status}: ${await response.text()}`);
        url = new URL(location, url);
      }
      throw new Error("The provider redirected more than 10 times.");
    },
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.close((err) => (err ? reject(err) : resolve()));
        // fetch keeps connections open for reuse; close would wait for them.
        server.closeAllConnections();
      }),
  };
}
