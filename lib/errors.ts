import type { z } from "zod";

/**
 * The one error model. Every expected failure is an AppError with a code; each surface (HTTP, console and chat
 * actions, the model's tools, MCP) turns it into its own shape from the one table below, and anything that is not an
 * AppError is a fault whose details stay in the server log.
 */
export const ERROR_CODES = [
  "bad_request",
  "unauthorized",
  "forbidden",
  "not_found",
  "conflict",
  "payload_too_large",
  "unsupported_media_type",
  "unprocessable",
  "rate_limited",
  "quota_exceeded",
  "unavailable",
  "internal",
] as const;
export type ErrorCode = (typeof ERROR_CODES)[number];

/** One problem with the input, at a path inside it (`["content", "preference"]`). */
export interface ErrorDetail {
  path: (string | number)[];
  message: string;
}

export interface ErrorExtras {
  /** Response headers an HTTP surface sends along, e.g. Retry-After on a 429. */
  headers?: Record<string, string>;
  /** For a conflict on a memory: the version it is at now. */
  currentVersion?: number;
  /** What stands now, sent beside `error` in an HTTP body (a proposal's conflict carries the current memory). */
  body?: Record<string, unknown>;
}

export class AppError extends Error {
  constructor(
    readonly code: ErrorCode,
    message: string,
    readonly details: ErrorDetail[] = [],
    readonly extras: ErrorExtras = {},
  ) {
    super(message);
    this.name = "AppError";
  }
}

/** Input that breaks a rule (a schema, a limit, a cursor this app did not make): `unprocessable`, with the issues. */
export class ValidationError extends AppError {
  constructor(message: string, details: ErrorDetail[] = []) {
    super("unprocessable", message, details);
    this.name = "ValidationError";
  }
}

/**
 * How each code reads on every surface: the HTTP status, and whether its message may be shown as is to the caller,
 * a person or a model (an internal failure's message may name tables or configuration; it is replaced).
 */
export const ERROR_TABLE: Record<ErrorCode, { status: number; shown: boolean }> = {
  bad_request: { status: 400, shown: true },
  unauthorized: { status: 401, shown: true },
  forbidden: { status: 403, shown: true },
  not_found: { status: 404, shown: true },
  conflict: { status: 409, shown: true },
  payload_too_large: { status: 413, shown: true },
  unsupported_media_type: { status: 415, shown: true },
  unprocessable: { status: 422, shown: true },
  rate_limited: { status: 429, shown: true },
  quota_exceeded: { status: 403, shown: true },
  unavailable: { status: 503, shown: false },
  internal: { status: 500, shown: false },
};

export const HIDDEN_MESSAGES: Record<"unavailable" | "internal", string> = {
  unavailable: "The service is unavailable right now; try again shortly.",
  internal: "Something went wrong on our side.",
};

/** The failure a surface reports: code, a message safe to show, and the input problems. */
export interface Failure {
  code: ErrorCode;
  message: string;
  details: ErrorDetail[];
}

/** A failure as the console and chat actions return it (server actions cannot throw typed errors to the page). */
export type ActionResult<T extends object = object> = ({ ok: true } & T) | { ok: false; error: Failure };

/**
 * The failure to report for `error`: an AppError as its table row says, anything else as `internal` (the caller
 * logs it). Unknown errors are never described to the caller.
 */
export function failureOf(error: unknown): Failure {
  if (error instanceof AppError) {
    const hidden = !ERROR_TABLE[error.code].shown;
    return {
      code: error.code,
      message: hidden ? HIDDEN_MESSAGES[error.code as keyof typeof HIDDEN_MESSAGES] : error.message,
      details: hidden ? [] : error.details,
    };
  }
  return { code: "internal", message: HIDDEN_MESSAGES.internal, details: [] };
}

/** An expected failure as an action result; a fault (anything not an AppError) propagates to the framework. */
export function actionFailure(error: unknown): { ok: false; error: Failure } {
  if (!(error instanceof AppError)) throw error;
  return { ok: false, error: failureOf(error) };
}

/** Runs an action's work, answering expected failures as results and letting faults propagate. */
export async function settleAction<T extends object>(work: () => Promise<T>): Promise<ActionResult<T>> {
  try {
    return { ok: true, ...(await work()) };
  } catch (error) {
    return actionFailure(error);
  }
}

/** Parses with zod; a failure is `unprocessable` with every issue as a detail, the same on every surface. */
export function parseInput<S extends z.ZodType>(schema: S, value: unknown): z.output<S> {
  const result = schema.safeParse(value);
  if (result.success) return result.data;
  const details = result.error.issues.map((issue) => ({
    path: issue.path.map((segment) => (typeof segment === "symbol" ? String(segment) : segment)),
    message: issue.message,
  }));
  const first = details[0];
  const where = first && first.path.length > 0 ? `${first.path.join(".")}: ` : "";
  const message = first?.message ?? "rejected";
  // Messages written for forms end their sentence already ("Send at least one memory.").
  const end = /[.!?]$/.test(message) ? "" : ".";
  throw new ValidationError(`Invalid input: ${where}${message}${end}`, details);
}
