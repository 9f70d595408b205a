import { imageSize } from "image-size";
import { badRequest } from "../http/errors.js";

/**
 * Media types of the raster formats whose bytes image-size recognizes. Not SVG, which it finds by a
 * pattern in the first 1000 bytes: that misses a root tag longer than that and takes any text with
 * an `<svg` tag in it (HTML, say) for one; `svgRootAttributes` reads it instead.
 */
const RASTER_TYPES: Record<string, string> = {
  png: "image/png",
  jpg: "image/jpeg",
  gif: "image/gif",
  webp: "image/webp",
  bmp: "image/bmp",
  tiff: "image/tiff",
  ico: "image/x-icon",
  avif: "image/avif",
  heif: "image/heif",
};
const SVG_TYPE = "image/svg+xml";
const IMAGE_TYPES = [...Object.values(RASTER_TYPES), SVG_TYPE].join(", ");

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
  const svg = svgRootAttributes(bytes);
  const image = svg ? { contentType: SVG_TYPE, ...svgSize(svg) } : rasterImage(bytes);
  if (image) {
    const sniffed = image.contentType;
    if (!UNKNOWN_TYPES.has(type) && type !== sniffed && !(sniffed === "image/jpeg" && type === "image/jpg"))
      throw badRequest(`The file is ${sniffed}, not ${type} as declared.`);
    return image;
  }
  if (type.startsWith("image/"))
    throw badRequest(
      `The file's bytes are not an image of type ${type} (the types read are ${IMAGE_TYPES}).`,
    );
  return {
    contentType: UNKNOWN_TYPES.has(type) ? "application/octet-stream" : type,
    width: null,
    height: null,
  };
}

function rasterImage(bytes: Uint8Array): Inspected | undefined {
  try {
    const size = imageSize(bytes);
    const contentType = size.type && RASTER_TYPES[size.type];
    if (contentType) return { contentType, width: size.width, height: size.height };
  } catch {
    // Not an image format image-size knows.
  }
  return undefined;
}

const byteOf = (char: string) => char.charCodeAt(0);
const [TAB, LF, CR, SPACE] = [byteOf("\t"), byteOf("\n"), byteOf("\r"), byteOf(" ")];
const [QUOTE, APOSTROPHE, SLASH, EQUALS, GT] = [
  byteOf('"'),
  byteOf("'"),
  byteOf("/"),
  byteOf("="),
  byteOf(">"),
];
const [OPEN, CLOSE] = [byteOf("["), byteOf("]")];
const isSpace = (byte: number | undefined) => byte === SPACE || byte === TAB || byte === LF || byte === CR;
const endsName = (byte: number | undefined) =>
  byte === undefined || isSpace(byte) || byte === EQUALS || byte === SLASH || byte === GT;

/** The root's attributes an SVG's size is read from; the others can be large and are not decoded. */
const SIZE_ATTRIBUTES = new Set(["width", "height", "viewBox"]);

/**
 * The size attributes of the root element when the bytes are an SVG document: an optional XML
 * declaration, then comments, processing instructions and at most one doctype, then an `svg` element;
 * undefined when they are not. Read up to the end of the root's start tag, however long its attributes
 * (draw.io keeps a whole diagram in one), from the bytes as they are: the markup is ASCII, and no byte
 * of a multi-byte UTF-8 character is.
 */
function svgRootAttributes(bytes: Uint8Array): Map<string, string> | undefined {
  const b = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  let at = b[0] === 0xef && b[1] === 0xbb && b[2] === 0xbf ? 3 : 0; // a byte order mark
  const startsWith = (markup: string) => b.toString("latin1", at, at + markup.length) === markup;
  /** Moves past the next `end`, if there is one. */
  const skipPast = (end: string) => {
    const found = b.indexOf(end, at);
    at = found + end.length;
    return found >= 0;
  };
  const skipSpace = () => {
    const from = at;
    while (isSpace(b[at])) at++;
    return at > from;
  };
  /** Past quoted text (the doctype's identifiers and entity values, which may hold `>` or `]`). */
  const skipQuoted = (quote: number) => {
    const end = b.indexOf(quote, at + 1);
    at = end + 1;
    return end >= 0;
  };
  const skipDoctype = () => {
    at += "<!DOCTYPE".length;
    let inSubset = false;
    while (at < b.length) {
      const byte = b[at];
      if (byte === QUOTE || byte === APOSTROPHE) {
        if (!skipQuoted(byte)) return false;
      } else if (inSubset && startsWith("<!--")) {
        at += 4;
        if (!skipPast("-->")) return false;
      } else {
        if (byte === GT && !inSubset) {
          at++;
          return true;
        }
        if (byte === OPEN) inSubset = true;
        else if (byte === CLOSE) inSubset = false;
        at++;
      }
    }
    return false;
  };

  if (startsWith("<?xml") && isSpace(b[at + 5])) {
    at += 5;
    if (!skipPast("?>")) return undefined;
  }
  let doctype = false;
  for (;;) {
    skipSpace();
    if (startsWith("<!--")) {
      at += 4;
      if (!skipPast("-->")) return undefined;
    } else if (startsWith("<?")) {
      at += 2;
      if (!skipPast("?>")) return undefined;
    } else if (!doctype && startsWith("<!DOCTYPE")) {
      doctype = true;
      if (!skipDoctype()) return undefined;
    } else break;
  }
  if (!startsWith("<svg")) return undefined;
  at += 4;
  const attributes = new Map<string, string>();
  for (;;) {
    const spaced = skipSpace();
    if (b[at] === GT || (b[at] === SLASH && b[at + 1] === GT)) return attributes;
    // Another name (`<svgz`), or attributes run together.
    if (!spaced) return undefined;
    const nameFrom = at;
    while (!endsName(b[at])) at++;
    const name = b.toString("utf8", nameFrom, at);
    skipSpace();
    if (name === "" || b[at] !== EQUALS) return undefined;
    at++;
    skipSpace();
    const quote = b[at];
    if (quote !== QUOTE && quote !== APOSTROPHE) return undefined;
    const valueFrom = at + 1;
    if (!skipQuoted(quote)) return undefined;
    if (SIZE_ATTRIBUTES.has(name)) attributes.set(name, b.toString("utf8", valueFrom, at - 1));
  }
}

/** CSS pixels in one of each unit an SVG's width and height may be given in (em and ex at 16 px). */
const PIXELS: Record<string, number> = {
  "": 1,
  px: 1,
  in: 96,
  cm: 96 / 2.54,
  mm: 96 / 25.4,
  pt: 96 / 72,
  pc: 16,
  em: 16,
  ex: 8,
};
const LENGTH = /^\s*(\d*\.?\d+(?:e[+-]?\d+)?)([a-z]*)\s*$/i;

/** Whole pixels, when `length` is a positive absolute length (not a percentage). */
function pixels(length: string | undefined): number | undefined {
  const [, number, unit = ""] = LENGTH.exec(length ?? "") ?? [];
  const perUnit = PIXELS[unit.toLowerCase()];
  const value = perUnit === undefined ? 0 : Math.round(Number(number) * perUnit);
  return value > 0 ? value : undefined;
}

/**
 * Its width and height, or else one of them and the viewBox's aspect ratio, or else the viewBox's
 * size; null when none of these is given, as an SVG then takes the size of where it is shown.
 */
function svgSize(attributes: Map<string, string>): { width: number | null; height: number | null } {
  const width = pixels(attributes.get("width"));
  const height = pixels(attributes.get("height"));
  if (width && height) return { width, height };
  const [, , boxWidth = 0, boxHeight = 0] = (attributes.get("viewBox") ?? "")
    .trim()
    .split(/[\s,]+/)
    .map(Number);
  if (!(boxWidth > 0 && boxHeight > 0)) return { width: null, height: null };
  if (width) return { width, height: Math.round((width * boxHeight) / boxWidth) };
  if (height) return { width: Math.round((height * boxWidth) / boxHeight), height };
  return { width: Math.round(boxWidth), height: Math.round(boxHeight) };
}
