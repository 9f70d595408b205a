import type { IncomingMessage } from "node:http";
import type { FormFile } from "@quire/api-types";
import Busboy from "busboy";
import { ApiError, badRequest } from "./errors.js";

const FORM_TYPE = /^multipart\/form-data\b/i;

/** Room for the form around its files: part headers and boundaries. */
const FORM_OVERHEAD = 64 * 1024;

/**
 * The files of a `multipart/form-data` body, one in each part `parts` names (a form with any other
 * part, a part twice or a part missing is a 400); a 413 as soon as a file passes `limit` bytes, or
 * before reading when the announced length already does.
 */
export function readFormFiles(
  req: IncomingMessage,
  parts: readonly string[],
  limit: number,
): Promise<Record<string, FormFile>> {
  if (!FORM_TYPE.test(req.headers["content-type"] ?? ""))
    return Promise.reject(
      badRequest(`The request must be a multipart/form-data form with the parts ${parts.join(", ")}.`),
    );
  if (Number(req.headers["content-length"] ?? 0) > limit * parts.length + FORM_OVERHEAD)
    return Promise.reject(tooLarge(limit));
  return new Promise((resolve, reject) => {
    let form: Busboy.Busboy;
    try {
      form = Busboy({
        headers: req.headers,
        defParamCharset: "utf8",
        limits: { files: parts.length, fileSize: limit, fields: 0 },
      });
    } catch (err) {
      reject(badRequest(`The form cannot be read: ${(err as Error).message}`));
      return;
    }
    const files = new Map<string, Promise<FormFile>>();
    let failed = false;
    const fail = (err: ApiError) => {
      if (failed) return;
      failed = true;
      req.unpipe(form);
      req.resume();
      reject(err);
    };
    form.on("file", (part, stream, info) => {
      if (!parts.includes(part) || files.has(part)) {
        stream.resume();
        return fail(
          badRequest(`The form takes one file in each of the parts ${parts.join(", ")}; not "${part}".`),
        );
      }
      const file = new Promise<FormFile>((done, refuse) => {
        const chunks: Buffer[] = [];
        stream.on("data", (chunk: Buffer) => chunks.push(chunk));
        stream.on("limit", () => refuse(tooLarge(limit)));
        stream.on("end", () =>
          done({ name: info.filename ?? "", contentType: info.mimeType, bytes: Buffer.concat(chunks) }),
        );
      });
      file.catch(fail);
      files.set(part, file);
    });
    form.on("filesLimit", () => fail(badRequest(`The form takes at most ${parts.length} file(s).`)));
    // A part without a file name is a plain field to busboy.
    form.on("fieldsLimit", () =>
      fail(badRequest(`The form holds only files, each with a file name, in the parts ${parts.join(", ")}.`)),
    );
    form.on("error", (err: Error) => fail(badRequest(`The form cannot be read: ${err.message}`)));
    form.on("close", async () => {
      const missing = parts.filter((part) => !files.has(part));
      if (missing.length > 0) return fail(badRequest(`The form has no ${missing.join(", ")} part.`));
      try {
        const read = await Promise.all(parts.map(async (part) => [part, await files.get(part)] as const));
        if (!failed) resolve(Object.fromEntries(read) as Record<string, FormFile>);
      } catch (err) {
        fail(err as ApiError);
      }
    });
    req.pipe(form);
  });
}

const tooLarge = (limit: number) => new ApiError(413, `A file may hold at most ${limit} bytes.`);
