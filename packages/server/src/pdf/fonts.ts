import { existsSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import type { TFontDictionary } from "pdfmake/interfaces.js";

/**
 * The fonts of the PDF: pdfmake's own Roboto for text, the PDF standard Courier for code, and, where
 * the machine has them, fonts that cover what those two do not: pdfmake takes one font per run of
 * text, with no fallback of its own, so text is cut into runs by the font that covers it.
 */

type Variants = Record<"normal" | "bold" | "italics" | "bolditalics", string>;

const robotoDir = join(dirname(createRequire(import.meta.url).resolve("pdfmake")), "..", "fonts", "Roboto");
const roboto = (file: string) => join(robotoDir, file);

const courier: Variants = {
  normal: "Courier",
  bold: "Courier-Bold",
  italics: "Courier-Oblique",
  bolditalics: "Courier-BoldOblique",
};

/** A family from files of the machine's (Debian's font packages), missing styles set in the regular one. */
function systemFamily(dir: string, files: Variants): Variants | undefined {
  const normal = join(dir, files.normal);
  if (!existsSync(normal)) return undefined;
  const styled = (file: string) => (existsSync(join(dir, file)) ? join(dir, file) : normal);
  return {
    normal,
    bold: styled(files.bold),
    italics: styled(files.italics),
    bolditalics: styled(files.bolditalics),
  };
}

// fonts-dejavu-core (and -extra for the obliques): most alphabets but CJK.
const dejavu = systemFamily("/usr/share/fonts/truetype/dejavu", {
  normal: "DejaVuSans.ttf",
  bold: "DejaVuSans-Bold.ttf",
  italics: "DejaVuSans-Oblique.ttf",
  bolditalics: "DejaVuSans-BoldOblique.ttf",
});
// fonts-symbola: emoji and symbols, in black and white (PDF fonts have no colour glyphs).
const symbolaFile = "Symbola_hint.ttf";
const symbola = systemFamily("/usr/share/fonts/truetype/ancient-scripts", {
  normal: symbolaFile,
  bold: symbolaFile,
  italics: symbolaFile,
  bolditalics: symbolaFile,
});

export const fonts: TFontDictionary = {
  Roboto: {
    normal: roboto("Roboto-Regular.ttf"),
    bold: roboto("Roboto-Medium.ttf"),
    italics: roboto("Roboto-Italic.ttf"),
    bolditalics: roboto("Roboto-MediumItalic.ttf"),
  },
  Courier: courier,
  ...(dejavu && { DejaVu: dejavu }),
  ...(symbola && { Symbola: symbola }),
};

/** Which fallback fonts the machine has: tests check the text they cover only where they are. */
export const fallbackFonts = { dejavu: dejavu !== undefined, symbola: symbola !== undefined };

const fontFiles = new Set(Object.values(fonts).flatMap((family) => Object.values(family) as string[]));

/** The only files pdfmake may open: the fonts above (it asks about the standard fonts' names too). */
export const isFontFile = (path: string): boolean => fontFiles.has(path);

const isEmoji = (cp: number) =>
  (cp >= 0x1f000 && cp < 0x1fb00) || (cp >= 0x2600 && cp < 0x27c0) || (cp >= 0x2b00 && cp < 0x2c00);
// Roboto's alphabets: Latin, Greek, Cyrillic, and the punctuation and currency signs.
const inRoboto = (cp: number) =>
  cp < 0x0530 || (cp >= 0x1e00 && cp < 0x2070) || (cp >= 0x20a0 && cp < 0x20d0);
// Courier, a standard font, has the Latin-1 characters only.
const inCourier = (cp: number) => cp < 0x0100;
// Joiners and variation selectors belong to the run they are in.
const joins = (cp: number) => cp === 0x200d || (cp >= 0xfe00 && cp < 0xfe10);

/** The font of a character the base font lacks; undefined to keep the base font. */
function fallbackOf(cp: number, inBase: (cp: number) => boolean): string | undefined {
  if (isEmoji(cp) && symbola) return "Symbola";
  if (inBase(cp)) return undefined;
  return dejavu ? "DejaVu" : undefined;
}

/** `text` cut into runs, each with the font that covers it (none: the base font, Roboto or Courier). */
export function fontRuns(text: string, base: "Roboto" | "Courier"): { text: string; font?: string }[] {
  const inBase = base === "Courier" ? inCourier : inRoboto;
  const runs: { text: string; font?: string }[] = [];
  let current: { text: string; font?: string } | undefined;
  for (const char of text) {
    const cp = char.codePointAt(0) as number;
    const font = current && joins(cp) ? current.font : fallbackOf(cp, inBase);
    if (current && current.font === font) current.text += char;
    else {
      current = { text: char, ...(font && { font }) };
      runs.push(current);
    }
  }
  return runs;
}
