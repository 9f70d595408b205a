import type { Request, Response, Router } from "express";
import type { ElementContent } from "hast";
import { h } from "hastscript";
import { sessionSecretOf } from "../auth/authenticate.js";
import { sessionHolder } from "../auth/sessions.js";
import type { UserTable } from "../db/schema.js";
import { ApiError } from "../http/errors.js";
import { withRequestOrigin } from "../http/request-context.js";
import type { Services } from "../services.js";
import { SECURITY_PAGE, SIGN_IN_PAGE } from "../urls.js";
import { confirmTotp, newRecoveryCodes, startTotp, totpBeingSetUp } from "./factors.js";
import { activeFactors, organizationRequiringSecondFactor, recoveryCodesLeft } from "./factors-store.js";
import { alert, field, form, link, paragraph, sendPage } from "./pages.js";
import { pageScripts, type SignInKit } from "./second-factor.js";

const KIND_NAMES = { totp: "authenticator app", passkey: "passkey" } as const;

/**
 * `/account/security`: a signed-in person's second factors, where they add a passkey (with the
 * pages' script, through the API) and set up an authenticator app (a form, without script). Kept
 * small: the app will have its own.
 */
export function securityRoutes(router: Router, services: Services, { path, ownForm }: SignInKit): void {
  const { db, urls, clock } = services;
  const apiPath = (page: string) => new URL(urls.api(page)).pathname;

  /** The person the request's session cookie is of; undefined (redirected to sign in) without one. */
  const signedIn = async (req: Request, res: Response): Promise<UserTable | undefined> => {
    const secret = sessionSecretOf(req);
    const found = secret ? await sessionHolder(db, secret, clock.now()) : undefined;
    if (!found) res.redirect(303, `${path(SIGN_IN_PAGE)}?next=${encodeURIComponent(path(SECURITY_PAGE))}`);
    return found?.user;
  };

  /** Runs an account change with the request's address, as its audit events name it. */
  const fromRequest = <T>(req: Request, change: () => Promise<T>) =>
    withRequestOrigin(req.socket.remoteAddress ? { address: req.socket.remoteAddress } : {}, change);

  const securityPage = async (res: Response, user: UserTable, status = 200, message?: string) => {
    const factors = await activeFactors(db, user.id);
    const requiring = factors.length === 0 ? await organizationRequiringSecondFactor(db, user.id) : undefined;
    const hasTotp = factors.some((factor) => factor.kind === "totp");
    const setup = hasTotp
      ? undefined
      : ((await totpBeingSetUp(services, user)) ?? (await startTotp(services, user)));
    const totp: ElementContent[] = setup
      ? [
          paragraph("Enter this secret in your authenticator app, then the code it shows:"),
          paragraph(h("code", setup.secret)),
          paragraph("Or give the app this address: ", h("code", { class: "otpauth" }, setup.uri)),
          form(path(`${SECURITY_PAGE}/totp`), "Turn on", field("Code", "code", "code")),
        ]
      : [paragraph("Your authenticator app is on.")];
    sendPage(res, urls, {
      status,
      title: "Security",
      content: [
        alert(requiring && `${requiring.title} requires a second factor: add one to continue.`),
        alert(message),
        h("h2", "Your second factors"),
        factors.length === 0
          ? paragraph("You have none yet: your password alone signs you in.")
          : h(
              "ul",
              factors.map((factor) =>
                h(
                  "li",
                  `${factor.name} (${KIND_NAMES[factor.kind]}), added ${factor.created_at.slice(0, 10)}`,
                ),
              ),
            ),
        ...(factors.length > 0
          ? [
              paragraph(`Recovery codes left: ${await recoveryCodesLeft(db, user.id)}.`),
              form(path(`${SECURITY_PAGE}/recovery-codes`), "Make new recovery codes", []),
            ]
          : []),
        h("h2", "Passkeys"),
        h(
          "button",
          {
            type: "button",
            id: "add-passkey",
            hidden: true,
            "data-options": apiPath("user/factors/passkeys/options"),
            "data-verify": apiPath("user/factors/passkeys"),
            "data-status": "passkey-status",
          },
          "Add a passkey",
        ),
        h("p", { id: "passkey-status", role: "status" }),
        h("h2", "Authenticator app"),
        ...totp,
        ...pageScripts(path),
      ],
    });
  };

  const codesPage = (res: Response, codes: string[]) =>
    sendPage(res, urls, {
      status: 200,
      title: "Recovery codes",
      content: [
        paragraph(
          "Keep these codes somewhere safe: each signs you in once without your second factor. They are shown only now.",
        ),
        h(
          "ul",
          codes.map((code) => h("li", h("code", code))),
        ),
        paragraph(link(path(SECURITY_PAGE), "Back to security")),
      ],
    });

  router.get(path(SECURITY_PAGE), async (req, res) => {
    const user = await signedIn(req, res);
    if (user) await securityPage(res, user);
  });

  router.post(path(`${SECURITY_PAGE}/totp`), ...ownForm, async (req, res) => {
    const user = await signedIn(req, res);
    if (!user) return;
    const code = String((req.body as Record<string, unknown>).code ?? "").trim();
    try {
      codesPage(res, await fromRequest(req, () => confirmTotp(services, user.id, code)));
    } catch (err) {
      if (!(err instanceof ApiError)) throw err;
      await securityPage(res, user, err.status, err.message);
    }
  });

  router.post(path(`${SECURITY_PAGE}/recovery-codes`), ...ownForm, async (req, res) => {
    const user = await signedIn(req, res);
    if (!user) return;
    try {
      codesPage(res, await newRecoveryCodes(services, user.id));
    } catch (err) {
      if (!(err instanceof ApiError)) throw err;
      await securityPage(res, user, err.status, err.message);
    }
  });
}
