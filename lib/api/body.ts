import { AppError } from "@/lib/errors";

/** Request bodies above this are refused before parsing (413). */
export const MAX_BODY_BYTES = 64 * 1024;
/**
 * JSON nested deeper than this is refused before parsing: no request shape comes close, while recursive validators
 * and Postgres' jsonb parser run out of stack on a few thousand levels that fit easily in a small body.
 */
export const MAX_JSON_DEPTH = 64;

/**
 * Reads the body as JSON: `application/json` (or `…+json`) in UTF-8 only, at most `limit` bytes without buffering
 * more, valid UTF-8, at most MAX_JSON_DEPTH levels, no text Postgres cannot store. Anything else is a 4xx.
 */
export async function readJsonBody(request: Request, limit = MAX_BODY_BYTES): Promise<unknown> {
  const text = await readBodyText(request, limit);
  if (text.trim() === "") throw new AppError("bad_request", "The request body must be JSON.");
  requireJsonContentType(request.headers.get("content-type"));
  return parseJsonText(text);
}

/** Like readJsonBody, but no body at all is `{}`: for requests whose every field is optional (approve, reject). */
export async function readOptionalJsonBody(request: Request, limit = MAX_BODY_BYTES): Promise<unknown> {
  const text = await readBodyText(request, limit);
  if (text === "") return {};
  if (text.trim() === "") throw new AppError("bad_request", "The request body must be JSON.");
  requireJsonContentType(request.headers.get("content-type"));
  return parseJsonText(text);
}

/**
 * A JSON media type is required so that a cross-site HTML form, which can only send form encodings or text/plain,
 * can never produce a body the API accepts.
 */
export function requireJsonContentType(header: string | null): void {
  const [essence = "", ...parameters] = (header ?? "").toLowerCase().split(";");
  const type = essence.trim();
  const json = type === "application/json" || /^application\/[a-z0-9.+-]+\+json$/.test(type);
  const charset = parameters
    .map((parameter) => parameter.trim())
    .find((parameter) => parameter.startsWith("charset="))
    ?.slice("charset=".length)
    .replaceAll('"', "");
  if (!json || (charset !== undefined && charset !== "utf-8" && charset !== "utf8")) {
    throw new AppError("unsupported_media_type", "Send the body as JSON: Content-Type: application/json (UTF-8).");
  }
}

/** The body as text: at most `limit` bytes (413 past it, without reading the rest) of strict UTF-8 (else 400). */
export async function readBodyText(request: Request, limit = MAX_BODY_BYTES): Promise<string> {
  const declared = Number(request.headers.get("content-length"));
  if (Number.isFinite(declared) && declared > limit) throw tooLarge(limit);
  if (!request.body) return "";
  const reader = request.body.getReader();
  const chunks: Uint8Array[] = [];
  let total = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    total += value.byteLength;
    if (total > limit) {
      await reader.cancel();
      throw tooLarge(limit);
    }
    chunks.push(value);
  }
  try {
    return new TextDecoder("utf-8", { fatal: true }).decode(Buffer.concat(chunks));
  } catch {
    throw new AppError("bad_request", "The request body is not valid UTF-8.");
  }
}

const tooLarge = (limit: number) =>
  new AppError("payload_too_large", `The request body exceeds ${Math.round(limit / 1024)} KB.`);

/**
 * JSON.parse behind the depth limit. Strings with NUL or an unpaired surrogate escape are refused here: Postgres
 * cannot store either, and refusing them up front means no route gets halfway through its writes first.
 */
export function parseJsonText(text: string): unknown {
  if (exceedsDepth(text, MAX_JSON_DEPTH)) {
    throw new AppError("bad_request", `The request body nests deeper than ${MAX_JSON_DEPTH} levels.`);
  }
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw new AppError("bad_request", "The request body is not valid JSON.");
  }
  if (hasUnstorableText(value)) {
    throw new AppError(
      "unprocessable",
      "The request contains characters that cannot be stored (NUL, or an unpaired UTF-16 surrogate).",
    );
  }
  return value;
}

/** Counts brackets outside strings, so that the check itself never recurses. */
function exceedsDepth(text: string, max: number): boolean {
  let depth = 0;
  let inString = false;
  for (let index = 0; index < text.length; index++) {
    const char = text[index];
    if (inString) {
      if (char === "\\") index++;
      else if (char === '"') inString = false;
    } else if (char === '"') inString = true;
    else if (char === "[" || char === "{") {
      depth++;
      if (depth > max) return true;
    } else if (char === "]" || char === "}") depth--;
  }
  return false;
}

const LONE_SURROGATE = /\p{Surrogate}/u;
const isUnstorable = (text: string) => text.includes("\u0000") || LONE_SURROGATE.test(text);

function hasUnstorableText(root: unknown): boolean {
  const pending = [root];
  while (pending.length > 0) {
    const value = pending.pop();
    if (typeof value === "string") {
      if (isUnstorable(value)) return true;
    } else if (Array.isArray(value)) pending.push(...value);
    else if (value && typeof value === "object") {
      for (const [key, inner] of Object.entries(value)) {
        if (isUnstorable(key)) return true;
        pending.push(inner);
      }
    }
  }
  return false;
}

/** Query-string parameters as a plain object (a repeated parameter keeps its last value). */
export function queryParams(request: Request): Record<string, string> {
  return Object.fromEntries(new URL(request.url).searchParams);
}
