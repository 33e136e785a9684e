import { z } from "zod";
import { LOCAL_EMBEDDING_MODEL_ID, LOCAL_EMBEDDING_PROVIDER } from "./local-embedding";

/** The bundled offline model, named on its own rather than as `provider:model`. */
export const OFFLINE_MODEL_ID = "offline";

type Env = Readonly<Record<string, string | undefined>>;

/** The `provider:model` string the chat uses by default; `offline` when nothing is configured. */
export function chatModelId(env: Env = process.env): string {
  return env.CHAT_MODEL?.trim() || OFFLINE_MODEL_ID;
}

/** What the model selector offers: the default, any extra `CHAT_MODELS`, and always the offline model. */
export function configuredChatModels(env: Env = process.env): string[] {
  const extra = (env.CHAT_MODELS ?? "").split(",").map((id) => id.trim());
  return [...new Set([chatModelId(env), ...extra, OFFLINE_MODEL_ID].filter(Boolean))];
}

export function extractionModelId(env: Env = process.env): string {
  return env.EXTRACTION_MODEL?.trim() || chatModelId(env);
}

/** Token budget of the verbatim conversation sent to the chat model; older turns are folded into a summary. */
export function chatContextTokens(env: Env = process.env): number {
  const value = Number(env.CHAT_CONTEXT_TOKENS);
  return Number.isInteger(value) && value >= 500 ? value : 8_000;
}

/**
 * The `provider:model` embedding id EMBEDDING_MODEL names, or null for `none` (no vectors: search is lexical only).
 * Unset or `local` is the bundled local model, which needs no key or network.
 */
export function embeddingModelIdFromEnv(env: Env = process.env): string | null {
  const id = env.EMBEDDING_MODEL?.trim() ?? "";
  if (id.toLowerCase() === "none") return null;
  if (id === "" || id.toLowerCase() === LOCAL_EMBEDDING_PROVIDER) return LOCAL_EMBEDDING_MODEL_ID;
  return id;
}

const modelTimeoutSchema = z.coerce.number().int().min(100).max(600_000);

/**
 * MODEL_TIMEOUT_MS: how long a provider call may send nothing (no response, no next stream part) before it fails,
 * a whole number of milliseconds from 100 to 600000; 30000 when unset or not one.
 */
export function modelTimeoutMs(env: Env = process.env): number {
  const raw = env.MODEL_TIMEOUT_MS?.trim();
  const parsed = modelTimeoutSchema.safeParse(raw);
  return raw && parsed.success ? parsed.data : 30_000;
}
