import { AsyncLocalStorage } from "node:async_hooks";
import { createHash, randomUUID } from "node:crypto";
import { format, types } from "node:util";
import { processState } from "@/lib/process-state";
import { currentTraceId } from "@/lib/telemetry";

/**
 * Server logs must never carry secrets or what people told the app. Errors are where both leak: a provider's error
 * carries the whole request body (the prompt, with memories and messages), Drizzle's error message lists the query's
 * parameters, and Postgres quotes values in its messages. So errors are logged as their class, the start of their
 * message (for database errors: the SQLSTATE, quoted values left out) and where they were thrown, never their
 * properties.
 */

const MAX_MESSAGE = 200;
const MAX_FRAMES = 5;

const MAX_CAUSES = 3;

/** The class and (truncated) message of an error, with its causes' when it wraps others. */
export function describeError(error: unknown, depth = 0): string {
  if (!isError(error)) return `non-error value (${typeof error})`;
  const own = isQueryError(error) ? "DrizzleQueryError" : `${className(error)}: ${truncate(messageOf(error))}`;
  const cause = causeOf(error);
  return cause === undefined || depth >= MAX_CAUSES ? own : `${own} ← ${describeError(cause, depth + 1)}`;
}

/** describeError plus the top stack frames (code locations only, no message). */
export function describeErrorWithStack(error: unknown): string {
  const description = describeError(error);
  if (!isError(error) || !error.stack) return description;
  const frames = error.stack
    .split("\n")
    .filter((line) => /^\s+at /.test(line))
    .slice(0, MAX_FRAMES);
  return frames.length ? `${description}\n${frames.join("\n")}` : description;
}

/** Logs a failure the server survives, e.g. "could not title the chat: APICallError: Service Unavailable". */
export function logFailure(context: string, error: unknown, level: "error" | "warn" = "error"): void {
  console[level](`${context}: ${describeError(error)}`);
}

const structured = new WeakSet<Console>();

/**
 * Makes every call on the process console write one JSON object per line (docs/observability.md): the time, the
 * level, the request's or job's id and the trace's (withLogFields, lib/telemetry) and the message, with errors written
 * as describeErrorWithStack, so errors that the framework or a library logs by itself (an unhandled error in a server
 * action, a default onError) are as safe as our own lines.
 */
export function structureConsole(target: Console = console): void {
  if (structured.has(target)) return;
  structured.add(target);
  for (const level of ["error", "warn", "info", "log", "debug", "trace"] as const) {
    const write = target[level].bind(target);
    target[level] = (...args: unknown[]) => {
      const traceId = currentTraceId();
      const message = format(...args.map((arg) => (isError(arg) ? describeErrorWithStack(arg) : arg)));
      const line = { time: new Date().toISOString(), level, ...fields.getStore(), trace_id: traceId, msg: message };
      if (level === "error" || level === "warn") keep("logged-problems", line);
      write(JSON.stringify(line));
    };
  }
}

const fields = new AsyncLocalStorage<Readonly<Record<string, string>>>();

/** Runs `work` as one request: a new `request_id` on every line it logs (API routes, server actions). */
export function asRequest<T>(work: () => T): T {
  return withLogFields({ request_id: randomUUID() }, work);
}

/** Runs `work` with `added` (a request's id, a job's) on every line it logs, beside those already set. */
export function withLogFields<T>(added: Readonly<Record<string, string>>, work: () => T): T {
  return fields.run({ ...fields.getStore(), ...added }, work);
}

function isError(value: unknown): value is Error {
  return value instanceof Error || types.isNativeError(value);
}

/** Drizzle's wrapper (recognised by shape: bundling may rename the class): its message lists the parameters. */
function isQueryError(error: Error): boolean {
  return error.message.startsWith("Failed query:") && "params" in error;
}

/** Postgres quotes the offending value in its messages (`invalid input syntax for type uuid: "…"`): keep the SQLSTATE. */
function messageOf(error: Error): string {
  const code = (error as { code?: unknown }).code;
  if (typeof code !== "string" || !/^[0-9A-Z]{5}$/.test(code)) return error.message;
  return `[${code}] ${error.message.replace(/"[^"]*"/g, '"…"')}`;
}

function className(error: Error): string {
  return error.name !== "Error" ? error.name : error.constructor?.name || "Error";
}

function causeOf(error: Error): unknown {
  const cause = (error as { cause?: unknown }).cause;
  if (isError(cause)) return cause;
  // Auth.js puts the underlying error at `cause.err`.
  const nested = (cause as { err?: unknown } | undefined)?.err;
  return isError(nested) ? nested : undefined;
}

function truncate(message: string): string {
  const line = message.replace(/\s+/g, " ").trim();
  return line.length > MAX_MESSAGE ? `${line.slice(0, MAX_MESSAGE)}…` : line;
}

/**
 * One line an operator can act on for a failed attempt at a model call, e.g. "memory extraction attempt failed:
 * run=… user=3f2a… model=openai:gpt-5-mini attempt=2 retried=true error=AI_APICallError status=503". Only
 * identifiers and the error's class and status: the message of a model call's error may quote the prompt.
 */
export function logFailedAttempt(
  context: string,
  error: unknown,
  fields: { user: string } & Record<string, string | number | boolean>,
): void {
  const { user, ...rest } = fields;
  // The SDK's retries wrap the attempts' errors: the last one says what happened.
  const last = isError(error) ? (error as { lastError?: unknown }).lastError : undefined;
  const status = statusCodeOf(last) ?? statusCodeOf(error);
  const line = {
    ...rest,
    user: userHash(user),
    error: isError(error) ? className(error) : typeof error,
    ...(isError(last) && { last: className(last) }),
    ...(status !== undefined && { status }),
  };
  const text = Object.entries(line)
    .map(([key, value]) => `${key}=${String(value).replace(/\s+/g, "_")}`)
    .join(" ");
  console.warn(`${context}: ${text}`);
  keep("failed-attempts", { time: new Date().toISOString(), context, error: line.error, status });
}

/** How many of the latest problems a process keeps for the console's System page. */
const KEPT = 50;

export interface LoggedProblem {
  time: string;
  level: string;
  msg: string;
  trace_id?: string;
  request_id?: string;
  job_id?: string;
}

export interface FailedAttempt {
  time: string;
  context: string;
  error: string;
  status?: number;
}

function keep(name: "logged-problems" | "failed-attempts", entry: LoggedProblem | FailedAttempt): void {
  const list = processState(name, () => [] as object[]);
  list.unshift(entry);
  list.length = Math.min(list.length, KEPT);
}

/** The latest warnings and errors this process logged once its console was structured, newest first. */
export function recentProblems(): readonly LoggedProblem[] {
  return processState("logged-problems", () => [] as LoggedProblem[]);
}

/** The latest failed attempts at a model call (logFailedAttempt) in this process, newest first. */
export function recentFailedAttempts(): readonly FailedAttempt[] {
  return processState("failed-attempts", () => [] as FailedAttempt[]);
}

function statusCodeOf(error: unknown): number | undefined {
  const status = isError(error) ? (error as { statusCode?: unknown }).statusCode : undefined;
  return typeof status === "number" ? status : undefined;
}

/** A stable short pseudonym of a user id: lines of one user can be followed without naming them. */
export function userHash(userId: string): string {
  return createHash("sha256").update(userId).digest("hex").slice(0, 12);
}
