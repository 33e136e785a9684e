import type { z } from "zod";
import { ApiError } from "./errors";

/** Request bodies above this are refused before parsing (413). */
export const MAX_BODY_BYTES = 64 * 1024;

/** Reads the body as JSON, refusing more than `limit` bytes without buffering them. Malformed JSON → 400. */
export async function readJsonBody(request: Request, limit = MAX_BODY_BYTES): Promise<unknown> {
  const declared = Number(request.headers.get("content-length"));
  if (Number.isFinite(declared) && declared > limit) throw tooLarge(limit);
  const text = await readText(request, limit);
  if (text.trim() === "") throw new ApiError("bad_request", "The request body must be JSON.");
  try {
    return JSON.parse(text);
  } catch {
    throw new ApiError("bad_request", "The request body is not valid JSON.");
  }
}

async function readText(request: Request, limit: number): Promise<string> {
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
  return new TextDecoder().decode(Buffer.concat(chunks));
}

const tooLarge = (limit: number) =>
  new ApiError("payload_too_large", `The request body exceeds ${Math.round(limit / 1024)} KB.`);

/** Validates with zod; unknown fields and wrong types are 422 with the issues as details. */
export function parseRequest<S extends z.ZodType>(schema: S, value: unknown): z.output<S> {
  const result = schema.safeParse(value);
  if (result.success) return result.data;
  const details = result.error.issues.map((issue) => ({ path: issue.path.map(String), message: issue.message }));
  const first = details[0];
  const where = first && first.path.length > 0 ? `${first.path.join(".")}: ` : "";
  throw new ApiError("unprocessable", `Invalid request: ${where}${first?.message ?? "rejected"}.`, details);
}

/** Query-string parameters as a plain object (a repeated parameter keeps its last value). */
export function queryParams(request: Request): Record<string, string> {
  return Object.fromEntries(new URL(request.url).searchParams);
}
