import { OFFLINE_MODEL_ID } from "./registry";

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
