import { type Config, config, OFFLINE_MODEL_ID } from "@/lib/config";
import { LOCAL_EMBEDDING_MODEL_ID } from "./local-embedding";

/** What the model selector offers: the default, any extra `CHAT_MODELS`, and always the offline model. */
export function configuredChatModels(settings: Config = config()): string[] {
  return [...new Set([settings.CHAT_MODEL, ...settings.CHAT_MODELS, OFFLINE_MODEL_ID])];
}

/**
 * The `provider:model` embedding id EMBEDDING_MODEL names, or null for `none` (no vectors: search is lexical only).
 * `local`, the default, is the bundled local model, which needs no key or network.
 */
export function embeddingModelId(settings: Config = config()): string | null {
  if (settings.EMBEDDING_MODEL === "none") return null;
  return settings.EMBEDDING_MODEL === "local" ? LOCAL_EMBEDDING_MODEL_ID : settings.EMBEDDING_MODEL;
}
