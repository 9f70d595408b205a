import {
  GetObjectCommand,
  HeadObjectCommand,
  NoSuchKey,
  NotFound,
  PutObjectCommand,
  S3Client,
} from "@aws-sdk/client-s3";
import type { FilesConfig } from "../config.js";
import { type BlobStore, sha256Of } from "./blobs.js";

/**
 * Blobs as objects of an S3-compatible bucket, keyed `<prefix><sha256>`. Credentials come the SDK's
 * usual way (environment, profile, instance role); `endpoint` names a non-AWS service (path-style).
 */
export function s3BlobStore(settings: NonNullable<FilesConfig["s3"]>, client?: S3Client): BlobStore {
  const s3 =
    client ??
    new S3Client({
      region: settings.region,
      ...(settings.endpoint && { endpoint: settings.endpoint, forcePathStyle: true }),
    });
  const key = (sha256: string) => `${settings.prefix}${sha256}`;
  const missing = (err: unknown) => err instanceof NoSuchKey || err instanceof NotFound;
  return {
    async put(bytes) {
      const sha256 = sha256Of(bytes);
      try {
        await s3.send(new HeadObjectCommand({ Bucket: settings.bucket, Key: key(sha256) }));
        return sha256;
      } catch (err) {
        if (!missing(err)) throw err;
      }
      await s3.send(new PutObjectCommand({ Bucket: settings.bucket, Key: key(sha256), Body: bytes }));
      return sha256;
    },
    async get(sha256) {
      try {
        const object = await s3.send(new GetObjectCommand({ Bucket: settings.bucket, Key: key(sha256) }));
        return object.Body ? await object.Body.transformToByteArray() : undefined;
      } catch (err) {
        if (missing(err)) return undefined;
        throw err;
      }
    },
  };
}
