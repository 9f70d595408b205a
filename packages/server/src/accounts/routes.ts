import express, { type Request, type Response, type Router } from "express";
import { h } from "hastscript";
import { fromOwnPages, sessionCookie, sessionSecretOf } from "../auth/authenticate.js";
import { closeSessionBySecret, type SignInMethod } from "../auth/sessions.js";
import { recordUserEvent } from "../auth/user-events.js";
import type { UserTable } from "../db/schema.js";
import { ApiError } from "../http/errors.js";
import { withRequestOrigin } from "../http/request-context.js";
import { RateLimiter } from "../limits/rate-limit.js";
import { type MailContent, passwordResetMail, sendInBackground, signInLinkMail } from "../mail/index.js";
import type { Services } from "../services.js";
import { ACCOUNT_PAGES, JOIN_PAGE, SIGN_IN_PAGE, SIGN_OUT_PAGE, type Urls } from "../urls.js";
import { alert, field, form, link, paragraph, sendPage } from "./pages.js";
import { setPassword } from "./password-change.js";
import { passwordProblem } from "./passwords.js";
import { SCRIPTS_PATH, scriptNamed, sendScript } from "./scripts.js";
import { secondFactorRoutes } from "./second-factor.js";
import { securityRoutes } from "./security-page.js";
import { type SignInOrigin, signInBrowser, userWithPassword } from "./sign-in.js";
import { accountByEmail, createLinkToken, linkHolder, ssoOnlyOrganization, useLink } from "./store.js";

const EMAIL_LINK_PATH = "sign-in/email";
const LINK_PATH = "sign-in/link";
const RESET_PATH = "reset-password";
const SSO_PATH = "sign-in/sso";

/** How long an emailed sign-in link works; the first start's link works for a day. */
export const SIGN_IN_LINK_MS = 15 * 60 * 1000;
export const FIRST_START_LINK_MS = 24 * 60 * 60 * 1000;
const RESET_LINK_MS = 60 * 60 * 1000;
/** Sign-in forms hold an email, a password and where to go next: a body past this is no sign-in. */
const FORM_LIMIT = "8kb";
const FIFTEEN_MINUTES = 15 * 60 * 1000;

/** Whatever the reason, one answer: an attacker learns nothing from which it was. */
const WRONG_PASSWORD = "That email and password do not match an account.";
const LINK_SENT =
  "If an account has this email, a link is on its way to it. It works once, for a limited time.";
const LINK_GONE = "This link has expired or was already used. Ask for a new one.";

/** The page a one-time sign-in link opens. */
export const signInLinkUrl = (urls: Urls, token: string): string => urls.page(`${LINK_PATH}/${token}`);

/** The token a link's path carries. */
const tokenOf = (req: Request) => String(req.params.token);

const text = (value: unknown) => (typeof value === "string" ? value : "");

/**
 * The pages where people sign in and out: email and password, a one-time link by email (or printed
 * at the first start), and a password reset by email. Each form must be posted from these pages
 * (403 otherwise); attempts are limited per account and per address, in the limiter's shared store.
 */
/** Where a person signs in through single sign-on, from their email alone (`commands/sso-sign-in.ts`). */
export type SsoLoginsForEmail = (
  services: Services,
  email: string,
) => Promise<ReadonlyArray<{ label: string; startURL: string }>>;

export function accountRoutes(
  router: Router,
  services: Services,
  ssoLoginsForEmail: SsoLoginsForEmail,
): void {
  const { db, urls, clock } = services;
  const secure = new URL(urls.page("")).protocol === "https:";
  const publicOrigin = new URL(urls.page("")).origin;
  const path = (page: string) => new URL(urls.page(page)).pathname;
  const appHome = new URL(urls.app("")).pathname;
  const perAccount = new RateLimiter(db, { limit: 10, windowMs: FIFTEEN_MINUTES });
  const perAddress = new RateLimiter(db, { limit: 100, windowMs: FIFTEEN_MINUTES });

  const originOf = (req: Request): SignInOrigin => ({
    device: req.headers["user-agent"],
    address: req.socket.remoteAddress,
  });

  /** Where a sign-in may lead: the app, and the pages that need a signed-in person (joining, the account's). */
  const destinations = [appHome, path(`${JOIN_PAGE}/`), path(`${ACCOUNT_PAGES}/`)];
  const nextPath = (next: unknown) => {
    const allowed = (candidate: string) => destinations.some((prefix) => candidate.startsWith(prefix));
    if (typeof next !== "string" || !allowed(next) || /[\\\s]/.test(next)) return appHome;
    const url = new URL(next, publicOrigin);
    return url.origin === publicOrigin && allowed(url.pathname) ? `${url.pathname}${url.search}` : appHome;
  };

  /** Counts an attempt for the address and, when given, the account; false once either is past its limit. */
  const withinLimits = async (req: Request, res: Response, email?: string) => {
    const states = await Promise.all([
      perAddress.take(`sign-in address ${req.socket.remoteAddress}`),
      ...(email ? [perAccount.take(`sign-in email ${email.trim().toLowerCase()}`)] : []),
    ]);
    const refused = states.find((state) => !state.allowed);
    if (!refused) return true;
    res.set("Retry-After", String(refused.resetSeconds));
    sendPage(res, urls, {
      status: 429,
      title: "Too many attempts",
      content: [alert(`Too many attempts. Try again in ${Math.ceil(refused.resetSeconds / 60)} minutes.`)],
    });
    return false;
  };

  const openSession = (req: Request, res: Response, user: UserTable, method: SignInMethod) =>
    signInBrowser(services, req, res, user, method);

  const signInPage = (res: Response, status: number, next: string, message?: string, email?: string) =>
    sendPage(res, urls, {
      status,
      title: "Sign in",
      content: [
        alert(message),
        form(
          path(SIGN_IN_PAGE),
          "Sign in",
          [...field("Email", "email", "email", email), ...field("Password", "password", "password")],
          { next },
        ),
        paragraph(
          link(`${path(EMAIL_LINK_PATH)}?next=${encodeURIComponent(next)}`, "Email me a sign-in link"),
        ),
        paragraph(link(path(RESET_PATH), "Forgot your password?")),
        paragraph(link(`${path(SSO_PATH)}?next=${encodeURIComponent(next)}`, "Sign in with single sign-on")),
      ],
    });

  const refuseCrossSite = (res: Response) =>
    sendPage(res, urls, {
      status: 403,
      title: "Refused",
      content: [alert("This form must be sent from this server's own pages.")],
    });

  const urlencoded = express.urlencoded({ extended: false, limit: FORM_LIMIT });
  /** Reads a form posted from these pages; false (answered 403) for one posted from anywhere else. */
  const ownForm = [
    urlencoded,
    (req: Request, res: Response, next: () => void) =>
      fromOwnPages(req, publicOrigin) ? next() : refuseCrossSite(res),
  ];
  const body = (req: Request) => (req.body ?? {}) as Record<string, unknown>;

  const kit = { path, ownForm, openSession, withinLimits, secure };
  /** Signs in, or first asks for the second factor of a person who has one. */
  const signIn = secondFactorRoutes(router, services, kit);
  securityRoutes(router, services, kit);

  router.get(path(`${SCRIPTS_PATH}/:script`), (req, res, next) => {
    const found = scriptNamed(req);
    if (found) sendScript(res, found);
    else next();
  });

  /**
   * Refuses a password or a link to a member of an organization that enforces single sign-on (told
   * only to whoever proved the password or holds the link); true once answered.
   */
  const refusedForSso = async (res: Response, user: UserTable) => {
    const organization = await ssoOnlyOrganization(db, user.id);
    if (!organization) return false;
    sendPage(res, urls, {
      status: 403,
      title: "Sign in through single sign-on",
      content: [
        alert(
          `${organization.title} signs its members in through single sign-on: sign in from your organization's identity provider.`,
        ),
      ],
    });
    return true;
  };

  const ssoPage = (res: Response, status: number, next: string, message?: string) =>
    sendPage(res, urls, {
      status,
      title: "Sign in with single sign-on",
      content: [
        alert(message),
        paragraph("Your organization's identity provider signs you in: enter your work email to find it."),
        form(path(SSO_PATH), "Continue", field("Email", "email", "email"), { next }),
      ],
    });

  router.get(path(SSO_PATH), (req, res) => ssoPage(res, 200, nextPath(req.query.next)));

  // One provider: straight to it. Several: the person picks. None: said so, whatever the email.
  router.post(path(SSO_PATH), ...ownForm, async (req, res) => {
    const { email, next } = body(req);
    const target = nextPath(next);
    if (!text(email).includes("@")) return ssoPage(res, 400, target, "Enter your work email.");
    const logins = await ssoLoginsForEmail(services, text(email));
    const start = (login: { startURL: string }) => `${login.startURL}?next=${encodeURIComponent(target)}`;
    const [only] = logins;
    if (only && logins.length === 1) return res.redirect(303, start(only));
    if (!only) return ssoPage(res, 404, target, "No single sign-on is set up for this email's domain.");
    sendPage(res, urls, {
      status: 200,
      title: "Sign in with single sign-on",
      content: [
        paragraph("Choose where to sign in:"),
        h(
          "ul",
          logins.map((login) => h("li", link(start(login), login.label))),
        ),
      ],
    });
  });

  router.get(path(SIGN_IN_PAGE), (req, res) => {
    signInPage(res, 200, nextPath(req.query.next));
  });

  router.post(path(SIGN_IN_PAGE), ...ownForm, async (req, res) => {
    const { email, password, next } = body(req);
    const target = nextPath(next);
    if (!text(email) || !text(password)) return signInPage(res, 400, target, WRONG_PASSWORD, text(email));
    if (!(await withinLimits(req, res, text(email)))) return;
    const user = await userWithPassword(services, text(email), text(password), originOf(req)).catch(
      (error: unknown) => {
        // Too many passwords being checked at once: the form again, with the reason, at once.
        if (!(error instanceof ApiError && error.status === 503)) throw error;
        if (error.headers) res.set(error.headers);
        signInPage(res, 503, target, error.message, text(email));
        return null;
      },
    );
    if (user === null) return;
    if (!user) return signInPage(res, 401, target, WRONG_PASSWORD, text(email));
    if (await refusedForSso(res, user)) return;
    await signIn(req, res, user, "password", target);
  });

  router.post(path(SIGN_OUT_PAGE), ...ownForm, async (req, res) => {
    const secret = sessionSecretOf(req);
    const closed = secret ? await closeSessionBySecret(db, secret) : undefined;
    if (closed)
      await withRequestOrigin(req.socket.remoteAddress ? { address: req.socket.remoteAddress } : {}, () =>
        services.transaction((tx) =>
          recordUserEvent(tx, services, closed.user_id, {
            type: "session_revoked",
            actorId: closed.user_id,
            data: { user: closed.user_id, session: closed.id },
          }),
        ),
      );
    res.append("Set-Cookie", sessionCookie("", { secure, maxAgeMs: 0 }));
    res.redirect(303, path(SIGN_IN_PAGE));
  });

  /** A page asking for an email to send a link to, and the page that answers it, whatever the email. */
  const emailLinkPages = (
    page: string,
    title: string,
    explanation: string,
    send: (user: UserTable, next: string) => Promise<MailContent>,
  ) => {
    const emailForm = (res: Response, status: number, next: string, message?: string) =>
      sendPage(res, urls, {
        status,
        title,
        content: [
          alert(message),
          paragraph(explanation),
          form(path(page), "Email me a link", field("Email", "email", "email"), { next }),
        ],
      });
    router.get(path(page), (req, res) => emailForm(res, 200, nextPath(req.query.next)));
    router.post(path(page), ...ownForm, async (req, res) => {
      const { email, next } = body(req);
      const target = nextPath(next);
      if (!text(email).includes("@")) return emailForm(res, 400, target, "Enter the email of your account.");
      if (!(await withinLimits(req, res, text(email)))) return;
      const user = await accountByEmail(db, text(email));
      if (user)
        sendInBackground(services.mailer, services.logger, { to: user.email, ...(await send(user, target)) });
      sendPage(res, urls, { status: 200, title: "Check your email", content: [alert(LINK_SENT)] });
    });
  };

  emailLinkPages(
    EMAIL_LINK_PATH,
    "Sign in with a link",
    "We will email you a link that signs you in once.",
    async (user, next) => {
      const token = await createLinkToken(db, services, {
        userId: user.id,
        purpose: "sign_in",
        validForMs: SIGN_IN_LINK_MS,
      });
      return signInLinkMail({
        link: `${signInLinkUrl(urls, token)}?next=${encodeURIComponent(next)}`,
        expiresInMinutes: SIGN_IN_LINK_MS / 60_000,
      });
    },
  );

  emailLinkPages(
    RESET_PATH,
    "Reset your password",
    "We will email you a link to choose a new password.",
    async (user) => {
      const token = await createLinkToken(db, services, {
        userId: user.id,
        purpose: "reset",
        validForMs: RESET_LINK_MS,
      });
      return passwordResetMail({
        link: urls.page(`${RESET_PATH}/${token}`),
        expiresInMinutes: RESET_LINK_MS / 60_000,
      });
    },
  );

  const linkGone = (res: Response) =>
    sendPage(res, urls, {
      status: 410,
      title: "Link expired",
      content: [alert(LINK_GONE), paragraph(link(path(SIGN_IN_PAGE), "Sign in"))],
    });

  // Following the link only shows a button: mail scanners that open links must not use them up.
  router.get(path(`${LINK_PATH}/:token`), async (req, res) => {
    const user = await linkHolder(db, tokenOf(req), "sign_in", clock.now());
    if (!user) return linkGone(res);
    sendPage(res, urls, {
      status: 200,
      title: "Sign in",
      content: [
        paragraph(`This link signs you in as ${user.email}.`),
        form(path(`${LINK_PATH}/${tokenOf(req)}`), "Sign in", [], { next: nextPath(req.query.next) }),
      ],
    });
  });

  router.post(path(`${LINK_PATH}/:token`), ...ownForm, async (req, res) => {
    if (!(await withinLimits(req, res))) return;
    const user = await useLink(db, tokenOf(req), "sign_in", clock.now());
    if (!user) return linkGone(res);
    if (await refusedForSso(res, user)) return;
    await signIn(req, res, user, "link", nextPath(body(req).next));
  });

  const newPasswordPage = (res: Response, status: number, token: string, message?: string) =>
    sendPage(res, urls, {
      status,
      title: "Choose a new password",
      content: [
        alert(message),
        form(
          path(`${RESET_PATH}/${token}`),
          "Set password",
          field("New password", "password", "new-password"),
        ),
      ],
    });

  router.get(path(`${RESET_PATH}/:token`), async (req, res) => {
    const user = await linkHolder(db, tokenOf(req), "reset", clock.now());
    if (!user) return linkGone(res);
    newPasswordPage(res, 200, tokenOf(req));
  });

  router.post(path(`${RESET_PATH}/:token`), ...ownForm, async (req, res) => {
    const token = tokenOf(req);
    const password = text(body(req).password);
    const problem = passwordProblem(password);
    if (problem) return newPasswordPage(res, 400, token, problem);
    if (!(await withinLimits(req, res))) return;
    const user = await useLink(db, token, "reset", clock.now());
    if (!user) return linkGone(res);
    // Whoever held the old password is signed out everywhere; the person who reset it is signed in
    // (after their second factor: the email is no factor).
    await setPassword(services, user.id, password, { address: req.socket.remoteAddress });
    await signIn(req, res, user, "link", appHome);
  });
}
