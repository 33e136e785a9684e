import { APICallError, RetryError, StreamProviderError } from "ai";
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
  | { kind: "reported"; message: string; retryable: boolean }
  | { kind: "unknown" };

const MAX_PROVIDER_MESSAGE = 300;

/**
 * Classifies a provider call's failure. The SDK's retries report the last attempt's error; a stream cut after the
 * headers arrives as an APICallError with the 200 it began with. An error the provider sent as an event of a stream
 * it had begun (an overload, a content filter) is `reported`, in its own words: the status the SDK gives such an
 * error is inferred from its type, never an HTTP status the provider answered with. Only a key's rejection keeps the
 * fixed wording, as over HTTP: its message may quote the key.
 */
export function classifyModelFailure(error: unknown): ModelFailure {
  const last = RetryError.isInstance(error) ? error.lastError : error;
  const timeout = findTimeout(last);
  if (timeout) return { kind: "timeout", ms: timeout.ms };
  const status = statusOf(last);
  const reported = reportedInStream(last);
  if (reported && status !== 401 && status !== 403) {
    return { kind: "reported", message: providerWords(reported.message), retryable: reported.isRetryable };
  }
  if (status === undefined) {
    return APICallError.isInstance(last) ? { kind: "unreachable" } : { kind: "unknown" };
  }
  if (status >= 200 && status < 300) return { kind: "cut" };
  if (status === 429) return { kind: "rate-limited", status };
  if (status === 401 || status === 403) return { kind: "key", status };
  if (status >= 500 || status === 408) return { kind: "server", status };
  return { kind: "refused", status, message: last instanceof Error ? providerWords(last.message) : "" };
}

/** Whether the error is the model provider's (or the connection's) rather than this app's own. */
export function isModelFailure(error: unknown): boolean {
  return classifyModelFailure(error).kind !== "unknown";
}

/**
 * The one wording of a provider failure for people: the chat's error message and a failed run's reason. Never an
 * SDK class name; the provider's own message when it refused the request as sent (it says what to fix) or reported
 * an error inside its stream (nothing else says what went wrong).
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
    case "reported":
      return `The model provider reported an error${failure.message ? `: "${failure.message}"` : ""}${failure.retryable ? "; try again shortly." : "."}`;
    case "unknown":
      return "The model could not answer because of an unexpected error; try again.";
  }
}

/**
 * The provider's error from inside a stream: the SDK's StreamProviderError for an error event after the stream began,
 * or the APICallError that @ai-sdk/openai and @ai-sdk/anthropic make of an error event that opens the stream (its
 * response is the event stream, not an HTTP error). A cut stream's APICallError keeps its 2xx status and is no report.
 */
function reportedInStream(error: unknown): { message: string; isRetryable: boolean } | undefined {
  if (StreamProviderError.isInstance(error)) return error;
  if (!APICallError.isInstance(error) || error.statusCode === undefined || error.statusCode < 400) return undefined;
  const contentType = error.responseHeaders?.["content-type"] ?? "";
  return contentType.startsWith("text/event-stream") ? error : undefined;
}

/** Key-shaped tokens (OpenAI, Anthropic, Groq, xAI, Google keys and bearer tokens), masked or not. */
const KEY_SHAPED = /\b(?:sk|pk|rk|gsk|xai)[-_][\w*.-]{8,}|\bAIza[\w-]{20,}|\bBearer\s+\S+/gi;

/** A provider's message as shown to people: one line, bounded, with anything shaped like a key masked. */
function providerWords(message: string): string {
  const words = message.replace(/\s+/g, " ").trim().replace(KEY_SHAPED, "[redacted]");
  return words.length > MAX_PROVIDER_MESSAGE ? `${words.slice(0, MAX_PROVIDER_MESSAGE - 1)}…` : words;
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
