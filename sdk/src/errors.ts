import { ERROR_CODES, ERROR_TABLE, type ErrorCode, type ErrorDetail } from "@/lib/errors";

export type { ErrorCode, ErrorDetail };

/**
 * Every refusal or failure the server answers: its `code` (the server's error codes), the HTTP `status` and the
 * server's `message`. A 429 carries the `retryAfterSeconds` the server asked for.
 */
export class MemoryLedgerError extends Error {
  constructor(
    readonly code: ErrorCode,
    readonly status: number,
    message: string,
    readonly details: ErrorDetail[] = [],
    readonly retryAfterSeconds?: number,
  ) {
    super(message);
    this.name = "MemoryLedgerError";
  }

  /** The error of a response that is not a success; a body without the server's error shape gets its status's code. */
  static async fromResponse(response: Response): Promise<MemoryLedgerError> {
    const text = await response.text().catch(() => "");
    const body = parseErrorBody(text);
    const retryAfter = retryAfterMs(response.headers.get("retry-after"));
    return new MemoryLedgerError(
      body?.code ?? codeForStatus(response.status),
      response.status,
      body?.message ?? `The server answered ${response.status}${response.statusText ? ` ${response.statusText}` : ""}.`,
      body?.details ?? [],
      retryAfter === undefined ? undefined : Math.ceil(retryAfter / 1000),
    );
  }
}

function parseErrorBody(text: string): { code: ErrorCode; message: string; details?: ErrorDetail[] } | undefined {
  try {
    const error = (JSON.parse(text) as { error?: { code?: unknown; message?: unknown; details?: unknown } }).error;
    if (!error || typeof error.message !== "string") return undefined;
    const code = ERROR_CODES.find((known) => known === error.code);
    if (!code) return undefined;
    return { code, message: error.message, details: Array.isArray(error.details) ? error.details : undefined };
  } catch {
    return undefined;
  }
}

function codeForStatus(status: number): ErrorCode {
  const known = ERROR_CODES.find((code) => ERROR_TABLE[code].status === status);
  if (known) return known;
  return status >= 500 ? "unavailable" : "bad_request";
}

/** Retry-After in milliseconds: delta-seconds or an HTTP date; undefined when absent or unreadable. */
export function retryAfterMs(value: string | null, now = Date.now()): number | undefined {
  if (value === null || value.trim() === "") return undefined;
  const seconds = Number(value);
  if (Number.isFinite(seconds)) return Math.max(0, seconds * 1000);
  const at = Date.parse(value);
  return Number.isNaN(at) ? undefined : Math.max(0, at - now);
}
