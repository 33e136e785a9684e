import { NextResponse } from "next/server";

export type ErrorCode =
  | "bad_request"
  | "unauthorized"
  | "forbidden"
  | "not_found"
  | "conflict"
  | "payload_too_large"
  | "unsupported_media_type"
  | "unprocessable"
  | "rate_limited"
  | "internal"
  | "unavailable";

const STATUS: Record<ErrorCode, number> = {
  bad_request: 400,
  unauthorized: 401,
  forbidden: 403,
  not_found: 404,
  conflict: 409,
  payload_too_large: 413,
  unsupported_media_type: 415,
  unprocessable: 422,
  rate_limited: 429,
  internal: 500,
  unavailable: 503,
};

export function errorResponse(code: ErrorCode, message: string, init?: { headers?: HeadersInit; details?: unknown }) {
  const body = { error: { code, message, ...(init?.details === undefined ? {} : { details: init.details }) } };
  return NextResponse.json(body, { status: STATUS[code], headers: init?.headers });
}

/** A request failure a route raises to stop early; the route wrapper turns it into `errorResponse`. */
export class ApiError extends Error {
  constructor(
    readonly code: ErrorCode,
    message: string,
    readonly details?: unknown,
    /** Extra response headers, e.g. Retry-After on a 429. */
    readonly headers?: HeadersInit,
  ) {
    super(message);
    this.name = "ApiError";
  }
}
