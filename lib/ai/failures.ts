import { APICallError, RetryError } from "ai";
import { formatSeconds, ModelTimeoutError } from "./idle-timeout";

/** What went wrong with a provider call, in the terms a person (and an operator's log line) needs. */
export type ModelFailure =
  | { kind: "timeout"; ms: number }
  | { kind: "rate-limited"; status: number }
  | { kind: "key"; status: number }
  | { kind: "cut" }
  | { kind: "unreachable" }
  | { kind: "server"; status: number }
  | { kind: "refused"; status: number; message: string }
  | { kind: "unknown" };

const MAX_PROVIDER_MESSAGE = 300;

/**
 * Classifies a provider call's failure. The SDK's retries report the last attempt's error; a stream cut after the
 * headers arrives as an APICallError with the 200 it began with.
 */
export function classifyModelFailure(error: unknown): ModelFailure {
  const last = RetryError.isInstance(error) ? error.lastError : error;
  const timeout = findTimeout(last);
  if (timeout) return { kind: "timeout", ms: timeout.ms };
  const status = statusOf(last);
  if (status === undefined) {
    return APICallError.isInstance(last) ? { kind: "unreachable" } : { kind: "unknown" };
  }
  if (status >= 200 && status < 300) return { kind: "cut" };
  if (status === 429) return { kind: "rate-limited", status };
  if (status === 401 || status === 403) return { kind: "key", status };
  if (status >= 500 || status === 408) return { kind: "server", status };
  const message = last instanceof Error ? last.message.replace(/\s+/g, " ").trim() : "";
  return { kind: "refused", status, message: message.slice(0, MAX_PROVIDER_MESSAGE) };
}

/** Whether the error is the model provider's (or the connection's) rather than this app's own. */
export function isModelFailure(error: unknown): boolean {
  return classifyModelFailure(error).kind !== "unknown";
}

/**
 * The one wording of a provider failure for people: the chat's error message and a failed run's reason. Never an
 * SDK class name; the provider's own message only when it refused the request as sent (it says what to fix).
 */
export function describeModelFailure(error: unknown): string {
  const failure = classifyModelFailure(error);
  switch (failure.kind) {
    case "timeout":
      return `The model sent nothing for ${formatSeconds(failure.ms)} s, so the request was stopped; try again.`;
    case "rate-limited":
      return "The model provider is rate-limiting requests; try again in a moment.";
    case "key":
      return `The model provider rejected the server's API key (HTTP ${failure.status}); the operator needs to check it.`;
    case "cut":
      return "The connection to the model provider broke off before the answer was complete; try again.";
    case "unreachable":
      return "The model provider could not be reached; try again shortly.";
    case "server":
      return `The model provider had a server error (HTTP ${failure.status}); try again shortly.`;
    case "refused":
      return `The model provider refused the request (HTTP ${failure.status}${failure.message ? `: ${failure.message}` : ""}).`;
    case "unknown":
      return "The model could not answer because of an unexpected error; try again.";
  }
}

function findTimeout(error: unknown): ModelTimeoutError | undefined {
  let current = error;
  for (let depth = 0; current instanceof Error && depth < 5; depth++) {
    if (current instanceof ModelTimeoutError) return current;
    current = current.cause;
  }
  return undefined;
}

/** APICallError's status, or that of a provider error class of the same shape (the gateway's). */
function statusOf(error: unknown): number | undefined {
  if (!(error instanceof Error)) return undefined;
  const status = (error as { statusCode?: unknown }).statusCode;
  return typeof status === "number" ? status : undefined;
}
