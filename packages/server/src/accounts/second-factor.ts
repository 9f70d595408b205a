import type { AuthenticationResponseJSON } from "@simplewebauthn/server";
import { parse as parseCookies, serialize as serializeCookie } from "cookie";
import express, { type Request, type RequestHandler, type Response, type Router } from "express";
import type { ElementContent } from "hast";
import { h } from "hastscript";
import { fromOwnPages } from "../auth/authenticate.js";
import type { SignInMethod } from "../auth/sessions.js";
import { recordUserEvent } from "../auth/user-events.js";
import type { UserTable } from "../db/schema.js";
import { withRequestOrigin } from "../http/request-context.js";
import type { Services } from "../services.js";
import { SIGN_IN_PAGE } from "../urls.js";
import { acceptPasskey, acceptTotpCode, passkeySignInOptions } from "./factors.js";
import {
  activeFactors,
  countWrongCode,
  createPendingSignIn,
  endPendingSignIn,
  hasSecondFactor,
  pendingSignIn,
  setPendingChallenge,
  useRecoveryCode,
} from "./factors-store.js";
import { alert, field, form, link, paragraph, sendPage } from "./pages.js";
import { PAGE_SCRIPTS, SCRIPTS_PATH } from "./scripts.js";
import { landingAfterSignIn } from "./sign-in.js";
import type { PendingMethod, PendingSignInTable } from "./tables.js";

/** What the sign-in pages share with the steps after the password. */
export interface SignInKit {
  /** The path of one of the server's pages. */
  path: (page: string) => string;
  /** Reads a form posted from these pages; answers 403 to one posted from anywhere else. */
  ownForm: RequestHandler[];
  /** Opens a session for `user` and sets its cookie; the caller answers. */
  openSession: (req: Request, res: Response, user: UserTable, method: SignInMethod) => Promise<void>;
  /** Counts an attempt for the address and the account; false (answered 429) once past a limit. */
  withinLimits: (req: Request, res: Response, email?: string) => Promise<boolean>;
  /** Whether cookies are sent over TLS only. */
  secure: boolean;
}

const SECOND_FACTOR_PATH = `${SIGN_IN_PAGE}/second-factor`;
const PASSKEY_OPTIONS_PATH = `${SIGN_IN_PAGE}/passkey/options`;
const PASSKEY_VERIFY_PATH = `${SIGN_IN_PAGE}/passkey/verify`;
/** The cookie of a sign-in waiting for its second factor: sent to the sign-in pages only. */
const PENDING_COOKIE = "quire_sign_in";
const PENDING_MS = 10 * 60 * 1000;
/** Wrong codes (or passkeys) a pending sign-in survives; then the password is asked again. */
const MAX_WRONG = 5;
/** A passkey's answer is a few kilobytes of JSON. */
const JSON_LIMIT = "32kb";

const WRONG_CODE = "That code is not right, or was used already.";
const START_AGAIN = "This sign-in has expired or had too many wrong codes. Sign in again.";

/**
 * The step between the password (or an emailed link) and the session for a person with a second
 * factor: a pending sign-in in a cookie of its own, finished by an authenticator app's code, a
 * recovery code or a passkey, each attempt counted against the account's limits and the pending
 * sign-in's own five. Returns `proceed`, which the first step calls once it knows the person.
 */
export function secondFactorRoutes(router: Router, services: Services, kit: SignInKit) {
  const { db, urls, clock } = services;
  const { path } = kit;

  const pendingCookie = (token: string, maxAgeMs: number) =>
    serializeCookie(PENDING_COOKIE, token, {
      httpOnly: true,
      sameSite: "lax",
      secure: kit.secure,
      path: path(SIGN_IN_PAGE),
      maxAge: Math.floor(maxAgeMs / 1000),
    });

  /** The pending sign-in the request's cookie names, with its user. */
  const pendingOf = async (
    req: Request,
  ): Promise<{ pending: PendingSignInTable; user: UserTable } | undefined> => {
    const token = req.headers.cookie ? parseCookies(req.headers.cookie)[PENDING_COOKIE] : undefined;
    const pending = token ? await pendingSignIn(db, token, clock.now()) : undefined;
    const user =
      pending &&
      (await db.selectFrom("users").selectAll().where("id", "=", pending.user_id).executeTakeFirst());
    return pending && user ? { pending, user } : undefined;
  };

  /** Signs in the person of a pending sign-in once (a concurrent finish gets false), ending it. */
  const finish = async (
    req: Request,
    res: Response,
    { pending, user }: { pending: PendingSignInTable; user: UserTable },
  ) => {
    if (!(await endPendingSignIn(db, pending.id))) return false;
    res.append("Set-Cookie", pendingCookie("", 0));
    await kit.openSession(req, res, user, pending.method);
    return true;
  };

  /**
   * Counts a wrong answer, an audit event in each of the person's organizations; past the limit the
   * pending sign-in ends. False once it has.
   */
  const wrong = async (req: Request, res: Response, pending: PendingSignInTable) => {
    const address = req.socket.remoteAddress;
    await withRequestOrigin(address === undefined ? {} : { address }, () =>
      services.transaction((tx) =>
        recordUserEvent(tx, services, pending.user_id, {
          type: "sign_in_failed",
          data: { operation: "signInSecondFactor", method: pending.method, user: pending.user_id },
        }),
      ),
    );
    if ((await countWrongCode(db, pending.id)) < MAX_WRONG) return true;
    await endPendingSignIn(db, pending.id);
    res.append("Set-Cookie", pendingCookie("", 0));
    return false;
  };

  const startAgain = (res: Response) =>
    sendPage(res, urls, {
      status: 401,
      title: "Sign in again",
      content: [alert(START_AGAIN), paragraph(link(path(SIGN_IN_PAGE), "Sign in"))],
    });

  const secondFactorPage = async (res: Response, status: number, userId: string, message?: string) => {
    const hasPasskey = (await activeFactors(db, userId)).some((factor) => factor.kind === "passkey");
    const passkey: ElementContent[] = hasPasskey
      ? [
          h(
            "button",
            {
              type: "button",
              id: "use-passkey",
              hidden: true,
              "data-options": path(PASSKEY_OPTIONS_PATH),
              "data-verify": path(PASSKEY_VERIFY_PATH),
              "data-status": "passkey-status",
            },
            "Use a passkey",
          ),
          h("p", { id: "passkey-status", role: "status" }),
          ...pageScripts(path),
        ]
      : [];
    sendPage(res, urls, {
      status,
      title: "Second factor",
      content: [
        alert(message),
        paragraph("Enter the code your authenticator app shows, or one of your recovery codes."),
        form(path(SECOND_FACTOR_PATH), "Verify", field("Code", "code", "code")),
        ...passkey,
      ],
    });
  };

  router.get(path(SECOND_FACTOR_PATH), async (req, res) => {
    const found = await pendingOf(req);
    if (!found) return startAgain(res);
    await secondFactorPage(res, 200, found.user.id);
  });

  router.post(path(SECOND_FACTOR_PATH), ...kit.ownForm, async (req, res) => {
    const found = await pendingOf(req);
    if (!found) return startAgain(res);
    if (!(await kit.withinLimits(req, res, found.user.email))) return;
    const code = String((req.body as Record<string, unknown>).code ?? "").trim();
    const accepted = /^\d{6}$/.test(code)
      ? await acceptTotpCode(services, found.user.id, code)
      : code.length > 0 && (await useRecoveryCode(db, found.user.id, code, clock.now()));
    if (accepted && (await finish(req, res, found))) return res.redirect(303, found.pending.next);
    if (!(await wrong(req, res, found.pending))) return startAgain(res);
    await secondFactorPage(res, 401, found.user.id, WRONG_CODE);
  });

  const json = express.json({ limit: JSON_LIMIT });
  /** A passkey step: JSON from these pages, for a pending sign-in; answers errors as the API does. */
  const passkeyStep =
    (
      step: (
        req: Request,
        res: Response,
        found: { pending: PendingSignInTable; user: UserTable },
      ) => Promise<void>,
    ) =>
    async (req: Request, res: Response) => {
      const refuse = (status: number, message: string) =>
        res.status(status).json({ error: { code: status, message } });
      if (!fromOwnPages(req, new URL(urls.page("")).origin))
        return refuse(403, "This must be sent from this server's own pages.");
      const found = await pendingOf(req);
      if (!found) return refuse(401, START_AGAIN);
      await step(req, res, found);
    };

  router.post(
    path(PASSKEY_OPTIONS_PATH),
    json,
    passkeyStep(async (_req, res, { pending, user }) => {
      const options = await passkeySignInOptions(services, user.id);
      await setPendingChallenge(db, pending.id, options.challenge);
      res.set("Cache-Control", "no-store").json(options);
    }),
  );

  router.post(
    path(PASSKEY_VERIFY_PATH),
    json,
    passkeyStep(async (req, res, found) => {
      if (!(await kit.withinLimits(req, res, found.user.email))) return;
      const { pending } = found;
      const response = req.body as AuthenticationResponseJSON;
      const accepted =
        pending.challenge !== null &&
        typeof response?.id === "string" &&
        (await acceptPasskey(services, found.user.id, response, pending.challenge));
      if (accepted && (await finish(req, res, found))) return void res.json({ location: pending.next });
      const message = (await wrong(req, res, pending)) ? "The passkey was not accepted." : START_AGAIN;
      res.status(401).json({ error: { code: 401, message } });
    }),
  );

  /**
   * After the password or link: signs a person without a second factor in; sends one with a factor
   * to the second-factor page, with a pending sign-in for ten minutes. Signed in without the factor
   * an organization of theirs requires, a person goes to add one: the API refuses them all else.
   */
  return async (req: Request, res: Response, user: UserTable, method: PendingMethod, next: string) => {
    if (await hasSecondFactor(db, user.id)) {
      const token = await createPendingSignIn(db, services, {
        userId: user.id,
        method,
        next,
        validForMs: PENDING_MS,
      });
      res.append("Set-Cookie", pendingCookie(token, PENDING_MS));
      return res.redirect(303, path(SECOND_FACTOR_PATH));
    }
    await kit.openSession(req, res, user, method);
    res.redirect(303, await landingAfterSignIn(services, user.id, next));
  };
}

/** The script elements of a page with a passkey button: the WebAuthn bundle, then ours. */
export const pageScripts = (path: (page: string) => string): ElementContent[] =>
  PAGE_SCRIPTS.map((script) => h("script", { src: path(`${SCRIPTS_PATH}/${script.name}`) }));
