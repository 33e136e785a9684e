import { NextResponse } from "next/server";
import { postgresErrorCode, UNIQUE_VIOLATION } from "@/lib/db/errors";
import { AppError, ERROR_TABLE, type ErrorCode, failureOf } from "@/lib/errors";
import { describeErrorWithStack } from "@/lib/log";

/** `{ error: { code, message, details? } }` with the code's status from the error table. */
export function errorResponse(
  code: ErrorCode,
  message: string,
  init?: { headers?: HeadersInit; details?: unknown; current?: Record<string, unknown> },
) {
  const error = { code, message, ...(init?.details === undefined ? {} : { details: init.details }) };
  const body = { ...init?.current, error };
  return NextResponse.json(body, { status: ERROR_TABLE[code].status, headers: init?.headers });
}

/** The HTTP answer to any failure of a request: expected ones as their code says, faults as a logged 500. */
export function toErrorResponse(error: unknown): Response {
  const expected = error instanceof AppError ? error : rejectedByDatabase(error);
  if (!expected || !ERROR_TABLE[expected.code].shown) {
    console.error(`API request failed: ${describeErrorWithStack(error)}`);
  }
  const failure = failureOf(expected ?? error);
  return errorResponse(failure.code, failure.message, {
    details: failure.details.length > 0 ? failure.details : undefined,
    headers: expected?.extras.headers,
    current: expected && ERROR_TABLE[expected.code].shown ? expected.extras.body : undefined,
  });
}

/**
 * Input that passed validation but that Postgres still refuses (a NUL character, an out-of-range date) or that
 * collides with an existing row is the caller's problem, not a server fault.
 */
const DATABASE_REJECTIONS: Record<string, { code: ErrorCode; message: string }> = {
  "22021": { code: "unprocessable", message: "The request contains characters that cannot be stored (e.g. NUL)." },
  "22P05": { code: "unprocessable", message: "The request contains characters that cannot be stored (e.g. NUL)." },
  "22008": { code: "unprocessable", message: "A date in the request is out of range." },
  [UNIQUE_VIOLATION]: { code: "conflict", message: "That id or key is already in use." },
};

function rejectedByDatabase(error: unknown): AppError | undefined {
  const code = postgresErrorCode(error);
  const rejection = code === undefined ? undefined : DATABASE_REJECTIONS[code];
  return rejection ? new AppError(rejection.code, rejection.message) : undefined;
}
