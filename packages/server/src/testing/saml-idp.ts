import { execFileSync } from "node:child_process";
import { randomBytes } from "node:crypto";
import { DOMParser, XMLSerializer } from "@xmldom/xmldom";
import { SignedXml } from "xml-crypto";

const PROTOCOL = "urn:oasis:names:tc:SAML:2.0:protocol";
const ASSERTION = "urn:oasis:names:tc:SAML:2.0:assertion";
const SIGNATURE = "http://www.w3.org/2000/09/xmldsig#";
const EMAIL_ADDRESS = "urn:oasis:names:tc:SAML:1.1:nameid-format:emailAddress";

/** A private key and the self-signed certificate that goes with it. */
export interface TestIdpKey {
  privateKey: string;
  certificate: string;
}

export interface TestIdpResponse {
  destination: string;
  recipient: string;
  audience: string;
  /** Left out for an IdP-initiated response. */
  inResponseTo?: string;
  email: string;
  /** NameID's Format: the email address format unless told. */
  nameIdFormat?: string;
  issueInstant: Date;
  notBefore: Date;
  /** Of the Conditions and of the bearer SubjectConfirmationData alike. */
  notOnOrAfter: Date;
  sign: "assertion" | "response" | "none";
  /** Another identity provider's key, to sign with one the service provider does not trust. */
  signWith?: TestIdpKey;
  /** The Issuer of the response and assertion: the identity provider's entity id unless told. */
  issuer?: string;
  attributes?: Record<string, string>;
}

/**
 * How an XML signature wrapping attack moves things around a genuine response: an unsigned `sibling`
 * assertion before the signed one, the signed assertion tucked `inside` an unsigned one that takes its
 * place, a `same-id` forged sibling carrying the signed assertion's ID, the signature `moved` onto a
 * forged assertion with that ID while the signed one hides in the response's Extensions, or the whole
 * signed response nested in a forged `response`.
 */
export type WrapShape = "sibling" | "inside" | "same-id" | "moved" | "response";

export interface TestIdp {
  entityId: string;
  /** The PEM certificate a SAML provider is configured with. */
  certificate: string;
  key: TestIdpKey;
  /** A base64 SAMLResponse, as an identity provider posts it to the assertion consumer service. */
  respond(options: TestIdpResponse): string;
  /** A forgery of `response` (base64) that names `email`, made without the identity provider's key. */
  wrap(response: string, options: { email: string; shape: WrapShape }): string;
}

/** A fresh RSA key and its self-signed certificate (node:crypto builds no certificates: openssl does). */
export function createTestIdpKey(): TestIdpKey {
  // Both come out on stdout, so the key never touches the disk.
  const pem = execFileSync(
    "openssl",
    ["req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "2", "-subj", "/CN=test-idp", "-keyout", "-"],
    { encoding: "utf8", stdio: ["ignore", "pipe", "ignore"] },
  );
  const block = (label: string) =>
    pem.match(new RegExp(`-----BEGIN ${label}-----[^-]+-----END ${label}-----\n`))?.[0];
  const privateKey = block("PRIVATE KEY");
  const certificate = block("CERTIFICATE");
  if (!privateKey || !certificate) throw new Error("openssl made no key and certificate");
  return { privateKey, certificate };
}

/** An identity provider for tests: signs SAML responses the way real ones do. */
export function createTestIdp({ entityId }: { entityId: string }): TestIdp {
  const key = createTestIdpKey();
  return {
    entityId,
    certificate: key.certificate,
    key,
    respond: (options) => {
      const xml = responseXml({ issuer: entityId, ...options });
      const signer = options.signWith ?? key;
      const signed =
        options.sign === "assertion"
          ? sign(xml, "Assertion", signer)
          : options.sign === "response"
            ? sign(xml, "Response", signer)
            : xml;
      return Buffer.from(signed).toString("base64");
    },
    wrap: (response, options) => Buffer.from(wrapped(decode(response), options)).toString("base64"),
  };
}

const newId = () => `_${randomBytes(16).toString("hex")}`;

const escapeXml = (text: string) =>
  text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;");

function responseXml(options: TestIdpResponse & { issuer: string }): string {
  const inResponseTo =
    options.inResponseTo === undefined ? "" : ` InResponseTo="${escapeXml(options.inResponseTo)}"`;
  const issued = options.issueInstant.toISOString();
  const attributes = Object.entries(options.attributes ?? {})
    .map(
      ([name, value]) =>
        `<saml:Attribute Name="${escapeXml(name)}"><saml:AttributeValue>${escapeXml(value)}</saml:AttributeValue></saml:Attribute>`,
    )
    .join("");
  // The saml prefix is declared on the Response only, as many identity providers do: the assertion
  // must still be read right once taken out of it.
  return (
    `<samlp:Response xmlns:samlp="${PROTOCOL}" xmlns:saml="${ASSERTION}" ID="${newId()}" Version="2.0"` +
    ` IssueInstant="${issued}" Destination="${escapeXml(options.destination)}"${inResponseTo}>` +
    `<saml:Issuer>${escapeXml(options.issuer)}</saml:Issuer>` +
    `<samlp:Status><samlp:StatusCode Value="urn:oasis:names:tc:SAML:2.0:status:Success"/></samlp:Status>` +
    `<saml:Assertion ID="${newId()}" Version="2.0" IssueInstant="${issued}">` +
    `<saml:Issuer>${escapeXml(options.issuer)}</saml:Issuer>` +
    `<saml:Subject>` +
    `<saml:NameID Format="${escapeXml(options.nameIdFormat ?? EMAIL_ADDRESS)}">${escapeXml(options.email)}</saml:NameID>` +
    `<saml:SubjectConfirmation Method="urn:oasis:names:tc:SAML:2.0:cm:bearer">` +
    `<saml:SubjectConfirmationData${inResponseTo} NotOnOrAfter="${options.notOnOrAfter.toISOString()}"` +
    ` Recipient="${escapeXml(options.recipient)}"/>` +
    `</saml:SubjectConfirmation>` +
    `</saml:Subject>` +
    `<saml:Conditions NotBefore="${options.notBefore.toISOString()}" NotOnOrAfter="${options.notOnOrAfter.toISOString()}">` +
    `<saml:AudienceRestriction><saml:Audience>${escapeXml(options.audience)}</saml:Audience></saml:AudienceRestriction>` +
    `</saml:Conditions>` +
    `<saml:AuthnStatement AuthnInstant="${issued}" SessionIndex="${newId()}">` +
    `<saml:AuthnContext><saml:AuthnContextClassRef>urn:oasis:names:tc:SAML:2.0:ac:classes:PasswordProtectedTransport</saml:AuthnContextClassRef></saml:AuthnContext>` +
    `</saml:AuthnStatement>` +
    (attributes && `<saml:AttributeStatement>${attributes}</saml:AttributeStatement>`) +
    `</saml:Assertion>` +
    `</samlp:Response>`
  );
}

/** Signs the `element` (Response or Assertion) with an enveloped signature after its Issuer, as SAML wants. */
function sign(xml: string, element: "Response" | "Assertion", key: TestIdpKey): string {
  const signer = new SignedXml({
    privateKey: key.privateKey,
    publicCert: key.certificate,
    signatureAlgorithm: "http://www.w3.org/2001/04/xmldsig-more#rsa-sha256",
    canonicalizationAlgorithm: "http://www.w3.org/2001/10/xml-exc-c14n#",
  });
  signer.addReference({
    xpath: `//*[local-name(.)='${element}']`,
    transforms: [
      "http://www.w3.org/2000/09/xmldsig#enveloped-signature",
      "http://www.w3.org/2001/10/xml-exc-c14n#",
    ],
    digestAlgorithm: "http://www.w3.org/2001/04/xmlenc#sha256",
  });
  signer.computeSignature(xml, {
    prefix: "ds",
    location: { reference: `//*[local-name(.)='${element}']/*[local-name(.)='Issuer']`, action: "after" },
  });
  return signer.getSignedXml();
}

const decode = (response: string) => Buffer.from(response, "base64").toString("utf8");

function wrapped(xml: string, { email, shape }: { email: string; shape: WrapShape }): string {
  const document = new DOMParser().parseFromString(xml, "text/xml");
  const response = document.documentElement;
  if (!response) throw new Error("not an XML document");
  const genuine = response.getElementsByTagNameNS(ASSERTION, "Assertion").item(0);
  if (!genuine) throw new Error("no assertion to wrap");
  const forged = genuine.cloneNode(true) as Element;
  for (const signature of Array.from(forged.getElementsByTagNameNS(SIGNATURE, "Signature")))
    signature.parentNode?.removeChild(signature);
  const nameId = forged.getElementsByTagNameNS(ASSERTION, "NameID").item(0);
  if (nameId) nameId.textContent = email;
  if (shape !== "same-id" && shape !== "moved") forged.setAttribute("ID", newId());
  switch (shape) {
    case "sibling":
    case "same-id":
      response.insertBefore(forged, genuine);
      break;
    case "inside":
      response.replaceChild(forged, genuine);
      forged.appendChild(genuine);
      break;
    case "moved": {
      const signature = genuine.getElementsByTagNameNS(SIGNATURE, "Signature").item(0);
      const issuer = forged.getElementsByTagNameNS(ASSERTION, "Issuer").item(0);
      if (!signature || !issuer) throw new Error("no signed assertion to wrap");
      forged.insertBefore(signature, issuer.nextSibling);
      response.replaceChild(forged, genuine);
      const extensions = document.createElementNS(PROTOCOL, "samlp:Extensions");
      extensions.appendChild(genuine);
      response.insertBefore(extensions, response.getElementsByTagNameNS(PROTOCOL, "Status").item(0));
      break;
    }
    case "response": {
      const forgedResponse = response.cloneNode(true) as Element;
      forgedResponse.setAttribute("ID", newId());
      for (const child of Array.from(forgedResponse.childNodes))
        if ((child as Element).localName === "Signature") forgedResponse.removeChild(child);
      const copied = forgedResponse.getElementsByTagNameNS(ASSERTION, "Assertion").item(0);
      if (copied) forgedResponse.replaceChild(forged, copied);
      document.removeChild(response);
      const extensions = document.createElementNS(PROTOCOL, "samlp:Extensions");
      extensions.appendChild(response);
      forgedResponse.insertBefore(
        extensions,
        forgedResponse.getElementsByTagNameNS(PROTOCOL, "Status").item(0),
      );
      document.appendChild(forgedResponse);
      break;
    }
  }
  return new XMLSerializer().serializeToString(document);
}
