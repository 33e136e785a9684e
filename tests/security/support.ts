import { expect } from "vitest";

export type Params = Record<string, string>;
/** Any route handler: each declares its own params, which the caller supplies. */
export type Handler = (request: Request, context: { params: Promise<never> }) => Promise<Response> | Response;

/** What the tests read from a response: status, headers and the body as text and (when it parses) JSON. */
export interface Outcome {
  status: number;
  headers: Headers;
  text: string;
  json: unknown;
}

export async function outcomeOf(response: Response): Promise<Outcome> {
  const text = await response.text();
  let json: unknown;
  try {
    json = text === "" ? undefined : JSON.parse(text);
  } catch {
    json = undefined;
  }
  return { status: response.status, headers: response.headers, text, json };
}

/**
 * Runs a route handler or server action the way Next does: `redirect()` throws, and Next answers 307 with the target.
 * NEXT_REDIRECT's digest is `NEXT_REDIRECT;<type>;<url>;<status>;`.
 */
export async function settle(run: () => Promise<unknown>): Promise<Response> {
  try {
    const result = await run();
    return result instanceof Response ? result : new Response(null, { status: 204 });
  } catch (error) {
    const digest = (error as { digest?: unknown } | null)?.digest;
    if (typeof digest !== "string" || !digest.startsWith("NEXT_REDIRECT;")) throw error;
    const [, , url, status] = digest.split(";");
    return new Response(null, { status: Number(status), headers: { location: url ?? "" } });
  }
}

/** The `error.message` of a JSON error body: `{ error: { message } }` (REST and JSON-RPC alike). */
export function errorMessageOf(json: unknown): unknown {
  return (json as { error?: { message?: unknown } } | undefined)?.error?.message;
}

/** A 4xx whose body is JSON with an error message. */
export function expectJsonRefusal(outcome: Outcome, label: string) {
  expect(outcome.status, `${label}: status (body ${outcome.text.slice(0, 300)})`).toBeGreaterThanOrEqual(400);
  expect(outcome.status, `${label}: status (body ${outcome.text.slice(0, 300)})`).toBeLessThan(500);
  expect(outcome.json, `${label}: body is JSON (${outcome.text.slice(0, 300)})`).toBeDefined();
  const message = errorMessageOf(outcome.json);
  expect(typeof message === "string" && message.length > 0, `${label}: error message in ${outcome.text}`).toBe(true);
}

/** Not a server error; when the body claims to be JSON, it is. */
export function expectNoServerError(outcome: Outcome, label: string) {
  expect(outcome.status, `${label}: status (body ${outcome.text.slice(0, 300)})`).toBeLessThan(500);
  if (outcome.headers.get("content-type")?.includes("application/json")) {
    expect(outcome.json, `${label}: JSON body (${outcome.text.slice(0, 300)})`).toBeDefined();
  }
}

/** A redirect that stays on this site: a path, or an absolute URL on the request's own origin. */
export function expectLocalRedirect(outcome: Outcome, origin: string, label: string) {
  expect([302, 303, 307], `${label}: status (body ${outcome.text.slice(0, 300)})`).toContain(outcome.status);
  const location = outcome.headers.get("location") ?? "";
  const target = new URL(location, origin);
  expect(target.origin, `${label}: redirect to ${location}`).toBe(origin);
}

/** Bytes of `parts`, strings as UTF-8 and number arrays as raw bytes: for bodies that are not valid UTF-8. */
export function bytes(...parts: (string | number[])[]): Uint8Array<ArrayBuffer> {
  const chunks = parts.map((part) => (typeof part === "string" ? Buffer.from(part, "utf8") : Buffer.from(part)));
  return new Uint8Array(Buffer.concat(chunks));
}

/** JSON text of `value` with every `"<marker>"` string replaced by `raw`: for JSON that JSON.stringify cannot make. */
export function jsonWith(value: unknown, marker: string, raw: string): string {
  return JSON.stringify(value).split(JSON.stringify(marker)).join(raw);
}

export const nestedArrays = (depth: number) => "[".repeat(depth) + "]".repeat(depth);
export const nestedObjects = (depth: number) => `${'{"a":'.repeat(depth)}1${"}".repeat(depth)}`;

/** A UTF-8 string read as Latin-1, which is how a raw non-ASCII header byte sequence reaches a handler. */
export const asHeaderBytes = (text: string) => Buffer.from(text, "utf8").toString("latin1");

/** A cookie jar standing in for next/headers' cookies() in route handlers and server actions. */
export class CookieJar {
  readonly #values = new Map<string, string>();

  get(name: string) {
    const value = this.#values.get(name);
    return value === undefined ? undefined : { name, value };
  }
  getAll() {
    return [...this.#values].map(([name, value]) => ({ name, value }));
  }
  has(name: string) {
    return this.#values.has(name);
  }
  set(name: string, value: string) {
    if (value === "") this.#values.delete(name);
    else this.#values.set(name, value);
    return this;
  }
  delete(name: string) {
    this.#values.delete(name);
    return this;
  }
  clear() {
    this.#values.clear();
  }
  header(): string {
    return this.getAll()
      .map(({ name, value }) => `${name}=${value}`)
      .join("; ");
  }
}

/** `name=value` pairs of every Set-Cookie header, as a Cookie header. */
export function cookiesFrom(response: Response): string {
  return response.headers
    .getSetCookie()
    .map((line) => line.split(";")[0])
    .join("; ");
}
