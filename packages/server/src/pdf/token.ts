import { createHmac, timingSafeEqual } from "node:crypto";

/**
 * What a PDF URL stands for: one revision of a change request, or of a space's main content, all of
 * it or one page.
 */
export interface PdfExport {
  spaceId: string;
  /** Absent for the space's main content. */
  changeRequestId?: string;
  /** The content's revision when the URL was made: later edits do not change the PDF. */
  revisionId: string;
  /** The page exported, with its descendants unless `only`; every page when absent. */
  page?: string;
  only?: boolean;
  /** When the URL stops working, in milliseconds since the epoch. */
  expires: number;
}

/** How long a PDF URL works, as GitBook's does. */
export const PDF_URL_LIFETIME_MS = 60 * 60 * 1000;

const signature = (secretKey: string, payload: string) =>
  createHmac("sha256", secretKey).update(`pdf:${payload}`).digest("base64url");

/** The token of a PDF URL: the export, readable, and its signature with the server's key. */
export function signPdfToken(secretKey: string, pdf: PdfExport): string {
  const payload = Buffer.from(JSON.stringify(pdf)).toString("base64url");
  return `${payload}.${signature(secretKey, payload)}`;
}

/** The export a token stands for, or undefined when it was not signed with this server's key. */
export function verifyPdfToken(secretKey: string, token: string): PdfExport | undefined {
  const [payload, given, ...rest] = token.split(".");
  if (payload === undefined || given === undefined || rest.length > 0) return undefined;
  const expected = Buffer.from(signature(secretKey, payload));
  const actual = Buffer.from(given);
  if (actual.length !== expected.length || !timingSafeEqual(actual, expected)) return undefined;
  return JSON.parse(Buffer.from(payload, "base64url").toString("utf8")) as PdfExport;
}
