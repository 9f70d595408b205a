import { createHmac } from "node:crypto";
import type { Schema } from "@quire/api-types";
import type { Urls } from "../urls.js";
import type { FileTable } from "./tables.js";

/** The signature in a file's download URL: it names the file, so only who was given the URL can fetch it. */
export function downloadSignature(secretKey: string, fileId: string): string {
  return createHmac("sha256", secretKey).update(`file:${fileId}`).digest("base64url").slice(0, 32);
}

/** The server's public base URL (no trailing slash), from the API URL that `Urls` builds. */
export function publicBase(urls: Urls): string {
  return urls.api("").replace(/\/v1\/$/, "");
}

export function downloadUrl(file: FileTable, urls: Urls, secretKey: string): string {
  const signature = downloadSignature(secretKey, file.id);
  return `${publicBase(urls)}/files/${file.id}/${signature}/${encodeURIComponent(file.name)}`;
}

export function presentFile(file: FileTable, urls: Urls, secretKey: string): Schema<"RevisionFile"> {
  return {
    id: file.id,
    name: file.name,
    contentType: file.content_type,
    downloadURL: downloadUrl(file, urls, secretKey),
    size: Number(file.size),
    ...(file.width !== null &&
      file.height !== null && { dimensions: { width: file.width, height: file.height } }),
  };
}
