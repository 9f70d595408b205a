import { createHash, randomBytes } from "node:crypto";
import { parse as parseCookies, serialize as serializeCookie } from "cookie";
import type { Request, Response } from "express";
import { alert, landingAfterSignIn, link, paragraph, sendPage, signInBrowser } from "../accounts/index.js";
import { timestamp } from "../db/codecs.js";
import type { Db } from "../db/database.js";
import type { UserTable } from "../db/schema.js";
import { recordEvent } from "../events/record.js";
import { withRequestOrigin } from "../http/request-context.js";
import type { Services } from "../services.js";
import { SIGN_IN_PAGE, type Urls } from "../urls.js";
import type { SsoLoginTable } from "./tables.js";

/** How long a person has at their identity provider before the sign-in must begin again. */
const LOGIN_MS = 10 * 60 * 1000;
const BROWSER_COOKIE = "quire_sso";

const sha256 = (text: string) => createHash("sha256").update(text).digest("hex");

/**
 * Ties sign-ins through identity providers to the browser that began them, so that a response someone
 * obtained for themselves cannot be posted into another person's browser to sign them in as that
 * someone (login CSRF). The identity provider posts SAML responses from its own site: the cookie must
 * be `SameSite=None`, which browsers accept only with `Secure`, that is over https. Over plain http
 * (a trial on one machine), it is `Lax`, and a SAML response, arriving without it, is checked without
 * the tie; an OpenID Connect callback is a top-level navigation and carries it either way.
 */
export function ssoLogins(db: Db, urls: Urls) {
  const secure = new URL(urls.page("")).protocol === "https:";
  const path = new URL(urls.page("sso/")).pathname;

  const browserOf = (req: Request) => parseCookies(req.headers.cookie ?? "")[BROWSER_COOKIE];

  return {
    secure,

    /** Records a sign-in begun by this browser, giving it the cookie that ties it there. */
    async begin(
      res: Response,
      login: Omit<SsoLoginTable, "browser_hash" | "expires_at">,
      now: Date,
    ): Promise<void> {
      const browser = randomBytes(32).toString("base64url");
      // Abandoned sign-ins go when someone begins another: no task needed to sweep them.
      await db.deleteFrom("sso_logins").where("expires_at", "<=", timestamp(now)).execute();
      await db
        .insertInto("sso_logins")
        .values({ ...login, browser_hash: sha256(browser), expires_at: timestamp(now, LOGIN_MS) })
        .execute();
      res.append(
        "Set-Cookie",
        serializeCookie(BROWSER_COOKIE, browser, {
          httpOnly: true,
          secure,
          sameSite: secure ? "none" : "lax",
          path,
          maxAge: LOGIN_MS / 1000,
        }),
      );
    },

    /**
     * Ends the sign-in `requestId` names for `providerId`, begun by this browser and not expired, and
     * returns it once: a second use, another browser and an unknown id all get undefined.
     */
    async take(req: Request, providerId: string, requestId: string, now: Date) {
      const browser = browserOf(req);
      const taken = await db
        .deleteFrom("sso_logins")
        .where("request_id", "=", requestId)
        .where("provider_id", "=", providerId)
        .where("expires_at", ">", timestamp(now))
        .returningAll()
        .executeTakeFirst();
      if (!taken) return undefined;
      const tied = browser !== undefined && sha256(browser) === taken.browser_hash;
      return tied || (!secure && browser === undefined) ? taken : undefined;
    },

    /** Records a SAML assertion as used; false when it already was (a replay). */
    async firstUseOf(providerId: string, assertionId: string, until: Date, now: Date): Promise<boolean> {
      await db.deleteFrom("sso_assertions").where("expires_at", "<=", timestamp(now)).execute();
      const inserted = await db
        .insertInto("sso_assertions")
        .values({ provider_id: providerId, assertion_id: assertionId, expires_at: timestamp(until) })
        .onConflict((oc) => oc.columns(["provider_id", "assertion_id"]).doNothing())
        .executeTakeFirst();
      return Number(inserted.numInsertedOrUpdatedRows ?? 0) > 0;
    },
  };
}

/**
 * The user a provider vouches for, made a member on first sign-in: `commands/sso-sign-in.ts`, which
 * `area.ts` passes to the routes (routes use no command).
 */
export type SsoMember<Provider> = (
  services: Services,
  provider: Provider,
  identity: { email: string; name?: string | undefined },
) => Promise<UserTable>;

/** Signs in the user an identity provider vouched for: their session's cookie, then where they were going. */
export async function finishSsoSignIn(
  services: Services,
  req: Request,
  res: Response,
  sign: { user: UserTable; method: "saml" | "oidc"; next: string },
): Promise<void> {
  await signInBrowser(services, req, res, sign.user, sign.method);
  res.redirect(303, await landingAfterSignIn(services, sign.user.id, sign.next));
}

/**
 * A sign-in through a provider that did not go through: the reason, an audit event in the provider's
 * organization (`sign_in_failed`), and the way back to the sign-in page.
 */
export async function refuseSsoSignIn(
  services: Services,
  req: Request,
  res: Response,
  refusal: { organizationId: string; method: "saml" | "oidc"; reason: string },
): Promise<void> {
  const address = req.socket.remoteAddress;
  await withRequestOrigin(address === undefined ? {} : { address }, () =>
    services.transaction((tx) =>
      recordEvent(tx, services, {
        organizationId: refusal.organizationId,
        type: "sign_in_failed",
        data: { operation: "signIn", method: refusal.method },
      }),
    ),
  );
  sendPage(res, services.urls, {
    status: 403,
    title: "Sign-in refused",
    content: [
      alert(refusal.reason),
      paragraph(link(new URL(services.urls.page(SIGN_IN_PAGE)).pathname, "Sign in")),
    ],
  });
}
