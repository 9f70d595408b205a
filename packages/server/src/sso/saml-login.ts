import { randomBytes } from "node:crypto";
import { promisify } from "node:util";
import { deflateRaw } from "node:zlib";
import { SAML, ValidateInResponseTo } from "@node-saml/node-saml";
import { DOMParser } from "@xmldom/xmldom";

/** GitBook requires the NameID to carry the user's email address; so does Quire. */
export const EMAIL_NAME_ID = "urn:oasis:names:tc:SAML:1.1:nameid-format:emailAddress";
const UNSPECIFIED_NAME_ID = "urn:oasis:names:tc:SAML:1.1:nameid-format:unspecified";
const PROTOCOL = "urn:oasis:names:tc:SAML:2.0:protocol";
const ASSERTION = "urn:oasis:names:tc:SAML:2.0:assertion";
const BEARER = "urn:oasis:names:tc:SAML:2.0:cm:bearer";
const SUCCESS = "urn:oasis:names:tc:SAML:2.0:status:Success";

/** How far the identity provider's clock may be from ours. */
const CLOCK_SKEW_MS = 60_000;

/** Attribute names identity providers use for the user's names (GitBook's, LDAP's, Entra ID's). */
const FIRST_NAME = [
  "first_name",
  "firstName",
  "givenName",
  "urn:oid:2.5.4.42",
  "http://schemas.xmlsoap.org/ws/2005/05/identity/claims/givenname",
];
const LAST_NAME = [
  "last_name",
  "lastName",
  "sn",
  "surname",
  "urn:oid:2.5.4.4",
  "http://schemas.xmlsoap.org/ws/2005/05/identity/claims/surname",
];

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

/** Why a SAML response was refused: short, and naming nothing taken from the XML. */
export type SamlRefusalReason =
  | "malformed"
  | "status"
  | "signature"
  | "issuer"
  | "destination"
  | "subject"
  | "recipient"
  | "audience"
  | "not-yet-valid"
  | "expired"
  | "unsolicited"
  | "unknown-request"
  | "name-id";

export class SamlRefused extends Error {
  constructor(
    readonly reason: SamlRefusalReason,
    options?: ErrorOptions,
  ) {
    super(`SAML response refused: ${reason}`, options);
    this.name = "SamlRefused";
  }
}

/** This server as a service provider for one SAML provider (see `samlServiceUrls`). */
export interface SamlService {
  entityID: string;
  acsURL: string;
}

export interface SamlIdentity {
  /** The NameID, lower-cased. */
  email: string;
  firstName?: string;
  lastName?: string;
  assertionId: string;
  /** Until when the assertion id must be remembered to refuse a replay: after it, the assertion is expired. */
  notOnOrAfter: Date;
}

const deflate = promisify(deflateRaw);

/**
 * The SP-initiated sign-in: the URL (HTTP-Redirect binding) that takes the browser to the identity
 * provider with an AuthnRequest, and the request's id, to be stored until the response comes back
 * (`verifySamlResponse`'s `expectsRequest`). No RequestedAuthnContext: the identity provider decides
 * how its users authenticate (asking for a password would refuse, say, a passkey).
 */
export async function samlLoginRequest({
  provider,
  service,
  requestId = `_${randomBytes(20).toString("hex")}`,
}: {
  provider: { ssoURL: string };
  service: SamlService;
  requestId?: string;
}): Promise<{ url: string; requestId: string }> {
  const request =
    `<samlp:AuthnRequest xmlns:samlp="${PROTOCOL}" xmlns:saml="${ASSERTION}" ID="${escapeXml(requestId)}"` +
    ` Version="2.0" IssueInstant="${new Date().toISOString()}" Destination="${escapeXml(provider.ssoURL)}"` +
    ` ProtocolBinding="urn:oasis:names:tc:SAML:2.0:bindings:HTTP-POST"` +
    ` AssertionConsumerServiceURL="${escapeXml(service.acsURL)}">` +
    `<saml:Issuer>${escapeXml(service.entityID)}</saml:Issuer>` +
    `<samlp:NameIDPolicy Format="${EMAIL_NAME_ID}" AllowCreate="true"/>` +
    `</samlp:AuthnRequest>`;
  const url = new URL(provider.ssoURL);
  url.searchParams.set("SAMLRequest", (await deflate(request)).toString("base64"));
  return { url: url.toString(), requestId };
}

/**
 * The identity in a SAMLResponse posted to the assertion consumer service, once it is shown to come
 * from the provider, for this service, now, in answer to a request of ours. Refusals throw
 * `SamlRefused`. The caller refuses a replay: it remembers `assertionId` until `notOnOrAfter`.
 *
 * node-saml checks the signature (of the response or of its one assertion, by the provider's
 * certificate, against signature wrapping) and hands over the signed assertion's bytes; every other
 * check is made here on those bytes, against `now` (node-saml reads the system clock).
 */
export async function verifySamlResponse({
  samlResponse,
  provider,
  service,
  now,
  expectsRequest,
}: {
  /** The base64 SAMLResponse form field. */
  samlResponse: string;
  provider: { entityId: string; certificate: string };
  service: SamlService;
  now: Date;
  /** Whether we issued this request id and it is not used yet; it uses it up. */
  expectsRequest: (inResponseTo: string) => Promise<boolean>;
}): Promise<SamlIdentity> {
  const response = parseXml(Buffer.from(samlResponse, "base64").toString("utf8"));
  if (!response || !is(response, PROTOCOL, "Response")) throw new SamlRefused("malformed");
  // Error responses are often unsigned: their status says more than their signature would.
  const statusCode = child(child(response, PROTOCOL, "Status"), PROTOCOL, "StatusCode");
  if (statusCode?.getAttribute("Value") !== SUCCESS) throw new SamlRefused("status");

  const assertion = parseXml(await signedAssertionXml(samlResponse, provider, service));
  if (!assertion || !is(assertion, ASSERTION, "Assertion")) throw new SamlRefused("malformed");
  const assertionId = assertion.getAttribute("ID");
  if (!assertionId) throw new SamlRefused("malformed");

  // The Response's own Issuer and Destination are signed only when the whole response is; the
  // assertion's Issuer and Recipient always are: those are required, these checked when present.
  if (text(child(assertion, ASSERTION, "Issuer")) !== provider.entityId) throw new SamlRefused("issuer");
  const responseIssuer = child(response, ASSERTION, "Issuer");
  if (responseIssuer && text(responseIssuer) !== provider.entityId) throw new SamlRefused("issuer");
  if (response.hasAttribute("Destination") && response.getAttribute("Destination") !== service.acsURL)
    throw new SamlRefused("destination");

  const conditions = children(assertion, ASSERTION, "Conditions");
  if (conditions.length > 1) throw new SamlRefused("malformed");
  const conditionsEnd = checkWindow(conditions[0], now);
  const audiences = children(conditions[0], ASSERTION, "AudienceRestriction");
  // Each restriction must name us (they all apply), and there must be one.
  if (
    audiences.length === 0 ||
    !audiences.every((restriction) =>
      children(restriction, ASSERTION, "Audience").some((audience) => text(audience) === service.entityID),
    )
  )
    throw new SamlRefused("audience");

  const subject = children(assertion, ASSERTION, "Subject");
  if (subject.length !== 1) throw new SamlRefused("subject");
  const confirmation = bearerConfirmation(subject[0], service, now);

  const nameId = child(subject[0], ASSERTION, "NameID");
  const format = nameId?.getAttribute("Format") || UNSPECIFIED_NAME_ID;
  const email = text(nameId)?.trim().toLowerCase();
  if (!email || !EMAIL.test(email) || (format !== EMAIL_NAME_ID && format !== UNSPECIFIED_NAME_ID))
    throw new SamlRefused("name-id");

  // Only answers to our own requests are taken: anyone can post an IdP-initiated response (no
  // InResponseTo) into someone else's browser to sign them in as someone else; a request id is what
  // ties a response to the browser that asked.
  const inResponseTo = confirmation.data.getAttribute("InResponseTo");
  if (!inResponseTo) throw new SamlRefused("unsolicited");
  if (response.hasAttribute("InResponseTo") && response.getAttribute("InResponseTo") !== inResponseTo)
    throw new SamlRefused("unknown-request");
  // Last, so that only a response that passed everything else uses the request up.
  if (!(await expectsRequest(inResponseTo))) throw new SamlRefused("unknown-request");

  const attributes = attributeValues(assertion);
  const firstName = FIRST_NAME.map((name) => attributes.get(name)).find(Boolean);
  const lastName = LAST_NAME.map((name) => attributes.get(name)).find(Boolean);
  return {
    email,
    ...(firstName && { firstName }),
    ...(lastName && { lastName }),
    assertionId,
    notOnOrAfter: new Date(Math.min(confirmation.end, conditionsEnd ?? Infinity) + CLOCK_SKEW_MS),
  };
}

/** The signed assertion's XML: node-saml verifies the signature and keeps only the bytes it covers. */
async function signedAssertionXml(
  samlResponse: string,
  provider: { certificate: string },
  service: SamlService,
): Promise<string> {
  const saml = new SAML({
    idpCert: provider.certificate,
    issuer: service.entityID,
    callbackUrl: service.acsURL,
    // With both false, node-saml takes a response signed as a whole, or else requires the one
    // assertion to be signed: either signature binds the assertion.
    wantAuthnResponseSigned: false,
    wantAssertionsSigned: false,
    // Checked in verifySamlResponse on the signed assertion: node-saml would read the system clock,
    // reads the unsigned Response's InResponseTo and knows no single-use request store.
    acceptedClockSkewMs: -1,
    audience: false,
    validateInResponseTo: ValidateInResponseTo.never,
  });
  try {
    const { profile } = await saml.validatePostResponseAsync({ SAMLResponse: samlResponse });
    const xml = profile?.getAssertionXml?.();
    if (xml) return xml;
  } catch (error) {
    throw new SamlRefused("signature", { cause: error });
  }
  throw new SamlRefused("malformed");
}

/**
 * The bearer SubjectConfirmation naming our ACS URL as its recipient, within its time window, and when
 * that window ends; the reason the first one fails when none passes.
 */
function bearerConfirmation(
  subject: Element | undefined,
  service: SamlService,
  now: Date,
): { data: Element; end: number } {
  let refusal: SamlRefusalReason = "subject";
  for (const confirmation of children(subject, ASSERTION, "SubjectConfirmation")) {
    const data = child(confirmation, ASSERTION, "SubjectConfirmationData");
    if (confirmation.getAttribute("Method") !== BEARER || !data) continue;
    try {
      if (data.getAttribute("Recipient") !== service.acsURL) throw new SamlRefused("recipient");
      // The profile requires a bearer confirmation to limit how long the assertion may be delivered.
      const end = checkWindow(data, now);
      if (end === undefined) throw new SamlRefused("malformed");
      return { data, end };
    } catch (error) {
      if (!(error instanceof SamlRefused)) throw error;
      if (refusal === "subject") refusal = error.reason;
    }
  }
  throw new SamlRefused(refusal);
}

/** Refuses outside the element's NotBefore..NotOnOrAfter window (give or take the skew); gives its end. */
function checkWindow(element: Element | undefined, now: Date): number | undefined {
  const notBefore = instant(element, "NotBefore");
  const notOnOrAfter = instant(element, "NotOnOrAfter");
  if (notBefore !== undefined && now.getTime() + CLOCK_SKEW_MS < notBefore)
    throw new SamlRefused("not-yet-valid");
  if (notOnOrAfter !== undefined && now.getTime() - CLOCK_SKEW_MS >= notOnOrAfter)
    throw new SamlRefused("expired");
  return notOnOrAfter;
}

function instant(element: Element | undefined, name: string): number | undefined {
  if (!element?.hasAttribute(name)) return undefined;
  const time = Date.parse(element.getAttribute(name) ?? "");
  if (Number.isNaN(time)) throw new SamlRefused("malformed");
  return time;
}

/** Each attribute's first value, by name. */
function attributeValues(assertion: Element): Map<string, string> {
  const values = new Map<string, string>();
  for (const statement of children(assertion, ASSERTION, "AttributeStatement"))
    for (const attribute of children(statement, ASSERTION, "Attribute")) {
      const value = text(child(attribute, ASSERTION, "AttributeValue"))?.trim();
      const name = attribute.getAttribute("Name");
      if (name && value && !values.has(name)) values.set(name, value);
    }
  return values;
}

/** The document element of well-formed XML. */
function parseXml(xml: string): Element | undefined {
  let wellFormed = true;
  const fail = () => {
    wellFormed = false;
  };
  // xmldom returns no document at all for an empty string, whatever its types say.
  const document: Document | undefined = new DOMParser({
    errorHandler: { error: fail, fatalError: fail },
  }).parseFromString(xml, "text/xml");
  return (wellFormed && document?.documentElement) || undefined;
}

const is = (element: Element, namespace: string, localName: string) =>
  element.namespaceURI === namespace && element.localName === localName;

function children(parent: Element | undefined, namespace: string, localName: string): Element[] {
  if (!parent) return [];
  return Array.from(parent.childNodes).filter(
    (node): node is Element => node.nodeType === 1 && is(node as Element, namespace, localName),
  );
}

const child = (parent: Element | undefined, namespace: string, localName: string) =>
  children(parent, namespace, localName)[0];

const text = (element: Element | undefined) => element?.textContent ?? undefined;

const escapeXml = (value: string) =>
  value.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;");
