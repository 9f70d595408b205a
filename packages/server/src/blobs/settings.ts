import type { FilesConfig } from "../config.js";
import { type BlobStore, directoryBlobStore } from "./blobs.js";
import { s3BlobStore } from "./s3.js";

/** What the files area works with: the blob store and the upload limit. */
export interface FileSettings {
  blobs: BlobStore;
  maxUploadBytes: number;
}

/** The blob store the configuration names: a bucket when `s3` is set, else the directory. */
export function fileSettingsFrom(config: FilesConfig): FileSettings {
  const blobs = config.s3 ? s3BlobStore(config.s3) : directoryBlobStore(config.directory);
  return { blobs, maxUploadBytes: config.maxUploadBytes };
}
