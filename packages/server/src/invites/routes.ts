import express, { type Request, type Response, type Router } from "express";
import {
  alert,
  field,
  form,
  link,
  paragraph,
  passwordProblem,
  sendPage,
  setPassword,
  signInBrowser,
} from "../accounts/index.js";
import { fromOwnPages, sessionSecretOf } from "../auth/authenticate.js";
import { sessionHolder } from "../auth/sessions.js";
import type { UserTable } from "../db/schema.js";
import { ApiError } from "../http/errors.js";
import type { Services } from "../services.js";
import { activeSamlProviders, samlStartUrl } from "../sso/index.js";
import { SIGN_IN_PAGE } from "../urls.js";
import { setDisplayName } from "../users/index.js";
import { joinThroughLink } from "./handlers.js";
import { invitationUrl, inviteLinkUrl } from "./presenter.js";
import { inviteLinkById, type OpenInvitation, openInvitation, useInvitation } from "./store.js";

/** A join form holds a name and a password: a body past this is no join. */
const FORM_LIMIT = "8kb";
const NAME_MAX = 100;

/** Whatever the reason, one answer: the page tells nothing of invitations that do not work. */
const GONE = "This invitation has expired or was already used. Ask for a new one.";

const text = (value: unknown) => (typeof value === "string" ? value : "");

/**
 * The pages an invitation leads to. `join/<token>`, the link mailed to each invited email: a person
 * new to Quire (the invited user has no password) chooses a name and a password there, or is sent
 * to the organization's single sign-on when it enforces it; someone with an account joins once
 * signed in as the invited email. `join/link/<inviteId>`: a signed-in person joins through an
 * invite link. Forms must be posted from these pages (403 otherwise).
 */
export function inviteRoutes(router: Router, services: Services): void {
  const { db, urls, clock } = services;
  const publicOrigin = new URL(urls.page("")).origin;
  const pathOf = (url: string) => new URL(url).pathname;
  const appHome = pathOf(urls.app(""));
  const signInTo = (next: string) => `${pathOf(urls.page(SIGN_IN_PAGE))}?next=${encodeURIComponent(next)}`;

  const visitor = async (req: Request): Promise<UserTable | undefined> => {
    const secret = sessionSecretOf(req);
    return secret ? (await sessionHolder(db, secret, clock.now()))?.user : undefined;
  };

  const page = (
    res: Response,
    status: number,
    title: string,
    ...content: Parameters<typeof sendPage>[2]["content"]
  ) => sendPage(res, urls, { status, title, content });

  const gone = (res: Response) => page(res, 410, "Invitation expired", alert(GONE));

  const refuseCrossSite = (res: Response) =>
    page(res, 403, "Refused", alert("This form must be sent from this server's own pages."));

  const ownForm = [
    express.urlencoded({ extended: false, limit: FORM_LIMIT }),
    (req: Request, res: Response, next: () => void) =>
      fromOwnPages(req, publicOrigin) ? next() : refuseCrossSite(res),
  ];
  const body = (req: Request) => (req.body ?? {}) as Record<string, unknown>;

  const joinButton = (res: Response, action: string, organization: string) =>
    page(
      res,
      200,
      `Join ${organization}`,
      paragraph(`You are invited to join ${organization}.`),
      form(action, "Join", []),
    );

  const otherAccount = (res: Response, invitation: OpenInvitation, signedIn: UserTable) =>
    page(
      res,
      403,
      "Invitation for another email",
      alert(
        `This invitation is for ${invitation.user.email}, and you are signed in as ${signedIn.email}. ` +
          `Sign out, then open the invitation again.`,
      ),
    );

  const signInFirst = (res: Response, status: number, invitation: OpenInvitation, action: string) =>
    page(
      res,
      status,
      `Join ${invitation.organizationTitle}`,
      paragraph(
        link(signInTo(action), `Sign in as ${invitation.user.email} to join ${invitation.organizationTitle}`),
      ),
    );

  /** A new person of an organization that signs in through single sign-on is sent there: no password. */
  const throughSso = async (res: Response, status: number, invitation: OpenInvitation) => {
    const [provider] = await activeSamlProviders(db, invitation.organizationId);
    page(
      res,
      status,
      `Join ${invitation.organizationTitle}`,
      provider === undefined
        ? alert(
            `${invitation.organizationTitle} signs in through single sign-on, which is not set up yet. Ask its admins.`,
          )
        : paragraph(
            link(
              samlStartUrl(urls, provider.id),
              `Sign in through ${invitation.organizationTitle}'s single sign-on to join`,
            ),
          ),
    );
  };

  const newPersonForm = (
    res: Response,
    status: number,
    invitation: OpenInvitation,
    action: string,
    message?: string,
  ) =>
    page(
      res,
      status,
      `Join ${invitation.organizationTitle}`,
      alert(message),
      paragraph(
        `Choose your name and a password to join ${invitation.organizationTitle} as ${invitation.user.email}.`,
      ),
      form(action, "Join", [
        ...field("Name", "name", "name"),
        ...field("Password", "password", "new-password"),
      ]),
    );

  router.get(pathOf(invitationUrl(urls, ":token")), async (req, res) => {
    const action = pathOf(invitationUrl(urls, String(req.params.token)));
    const invitation = await openInvitation(db, String(req.params.token), clock.now());
    if (!invitation) return gone(res);
    const signedIn = await visitor(req);
    if (signedIn?.id === invitation.user.id) return joinButton(res, action, invitation.organizationTitle);
    if (!invitation.hasPassword)
      return invitation.sso ? throughSso(res, 200, invitation) : newPersonForm(res, 200, invitation, action);
    if (signedIn) return otherAccount(res, invitation, signedIn);
    signInFirst(res, 200, invitation, action);
  });

  router.post(pathOf(invitationUrl(urls, ":token")), ...ownForm, async (req, res) => {
    const action = pathOf(invitationUrl(urls, String(req.params.token)));
    const invitation = await openInvitation(db, String(req.params.token), clock.now());
    if (!invitation) return gone(res);
    const signedIn = await visitor(req);
    if (signedIn?.id === invitation.user.id) {
      // The membership was made with the invitation: joining uses its link up.
      if (!(await useInvitation(db, invitation.id, clock.now()))) return gone(res);
      return res.redirect(303, appHome);
    }
    if (invitation.hasPassword)
      return signedIn ? otherAccount(res, invitation, signedIn) : signInFirst(res, 401, invitation, action);
    if (invitation.sso) return throughSso(res, 403, invitation);
    const name = text(body(req).name).trim();
    const password = text(body(req).password);
    if (name.length === 0 || name.length > NAME_MAX)
      return newPersonForm(res, 400, invitation, action, `Enter a name of 1 to ${NAME_MAX} characters.`);
    const problem = passwordProblem(password);
    if (problem) return newPersonForm(res, 400, invitation, action, problem);
    if (!(await useInvitation(db, invitation.id, clock.now()))) return gone(res);
    await setDisplayName(db, invitation.user.id, name);
    await setPassword(services, invitation.user.id, password, { address: req.socket.remoteAddress });
    await signInBrowser(services, req, res, { ...invitation.user, display_name: name }, "link");
    res.redirect(303, appHome);
  });

  // An invite link gives no account: a person without one is asked to sign in (Quire has no sign-up).
  router.get(pathOf(inviteLinkUrl(urls, ":inviteId")), async (req, res) => {
    const action = pathOf(inviteLinkUrl(urls, String(req.params.inviteId)));
    const invite = await inviteLinkById(db, String(req.params.inviteId));
    if (!invite?.links_allowed) return gone(res);
    if (!(await visitor(req)))
      return page(
        res,
        200,
        `Join ${invite.organization_title}`,
        paragraph(link(signInTo(action), `Sign in to join ${invite.organization_title}`)),
      );
    joinButton(res, action, invite.organization_title);
  });

  router.post(pathOf(inviteLinkUrl(urls, ":inviteId")), ...ownForm, async (req, res) => {
    const action = pathOf(inviteLinkUrl(urls, String(req.params.inviteId)));
    const invite = await inviteLinkById(db, String(req.params.inviteId));
    if (!invite) return gone(res);
    const signedIn = await visitor(req);
    if (!signedIn) return res.redirect(303, signInTo(action));
    try {
      await joinThroughLink(services, {
        organizationId: invite.organization_id,
        inviteId: invite.id,
        callerId: signedIn.id,
      });
    } catch (err) {
      // A link turned off, or to content deleted or gone from the organization, is as gone as a deleted one.
      if (err instanceof ApiError && [404, 409, 412].includes(err.status)) return gone(res);
      throw err;
    }
    res.redirect(303, appHome);
  });
}
