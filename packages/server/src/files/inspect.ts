import { imageSize } from "image-size";
import { badRequest } from "../http/errors.js";

/** Media types of the image formats whose bytes image-size recognizes. */
const IMAGE_TYPES: Record<string, string> = {
  png: "image/png",
  jpg: "image/jpeg",
  gif: "image/gif",
  webp: "image/webp",
  bmp: "image/bmp",
  tiff: "image/tiff",
  ico: "image/x-icon",
  svg: "image/svg+xml",
  avif: "image/avif",
  heif: "image/heif",
};

const MEDIA_TYPE = /^[a-z0-9][a-z0-9!#$&^_.+-]*\/[a-z0-9][a-z0-9!#$&^_.+-]*$/;

/** Declared types that say nothing about the bytes, so the bytes decide. */
const UNKNOWN_TYPES = new Set(["", "application/octet-stream"]);

export interface Inspected {
  contentType: string;
  width: number | null;
  height: number | null;
}

/**
 * The media type a file is stored and served with, and its pixels for an image: images are recognized
 * from their bytes, whatever was declared. A declared type the bytes contradict (an image type for bytes
 * that are not that image, or another type for bytes that are an image) is a 400, so that a file is
 * never served as something it is not.
 */
export function inspectFile(bytes: Uint8Array, declared: string): Inspected {
  const type = declared.split(";")[0]?.trim().toLowerCase() ?? "";
  if (!UNKNOWN_TYPES.has(type) && !MEDIA_TYPE.test(type))
    throw badRequest(`"${declared}" is not a media type.`);
  let image: { type: string; width: number; height: number } | undefined;
  try {
    const size = imageSize(bytes);
    if (size.type && IMAGE_TYPES[size.type])
      image = { type: size.type, width: size.width, height: size.height };
  } catch {
    // Not an image format image-size knows.
  }
  const sniffed = image && IMAGE_TYPES[image.type];
  if (sniffed && image) {
    if (!UNKNOWN_TYPES.has(type) && type !== sniffed && !(sniffed === "image/jpeg" && type === "image/jpg"))
      throw badRequest(`The file is ${sniffed}, not ${type} as declared.`);
    return { contentType: sniffed, width: image.width, height: image.height };
  }
  if (type.startsWith("image/"))
    throw badRequest(`The file's bytes are not a ${type} image (or not one of the supported formats).`);
  return {
    contentType: UNKNOWN_TYPES.has(type) ? "application/octet-stream" : type,
    width: null,
    height: null,
  };
}
