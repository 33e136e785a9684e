import { createAnthropic } from "@ai-sdk/anthropic";
import { createGateway } from "@ai-sdk/gateway";
import { createGoogle } from "@ai-sdk/google";
import { createOpenAI } from "@ai-sdk/openai";
import { createOpenAICompatible } from "@ai-sdk/openai-compatible";
import { createProviderRegistry, customProvider } from "ai";
import { type Config, config, type MODEL_PROVIDERS, OFFLINE_MODEL_ID } from "@/lib/config";
import { idleTimeoutMiddleware } from "./idle-timeout";
import { LOCAL_EMBEDDING_MODEL, LocalEmbeddingModel } from "./local-embedding";
import { OfflineLanguageModel } from "./offline/model";

/**
 * Every provider a `provider:model` string can name (docs/configuration.md), configured from `settings`. Every
 * language model it hands out, the chat's and the background manager's alike, fails a call that sends nothing for
 * MODEL_TIMEOUT_MS.
 */
export function createModelRegistry(settings: Config = config()) {
  const providers = {
    offline: customProvider({ languageModels: { default: new OfflineLanguageModel() } }),
    local: customProvider({
      embeddingModels: {
        [LOCAL_EMBEDDING_MODEL]: new LocalEmbeddingModel({
          threads: settings.LOCAL_EMBEDDING_THREADS,
          niceness: settings.LOCAL_EMBEDDING_NICENESS,
        }),
      },
    }),
    openai: createOpenAI({ apiKey: settings.OPENAI_API_KEY }),
    anthropic: createAnthropic({ apiKey: settings.ANTHROPIC_API_KEY }),
    google: createGoogle({ apiKey: settings.GOOGLE_GENERATIVE_AI_API_KEY }),
    gateway: createGateway({ apiKey: settings.AI_GATEWAY_API_KEY }),
    "openai-compatible": createOpenAICompatible({
      name: "openai-compatible",
      baseURL: settings.OPENAI_COMPATIBLE_BASE_URL,
      apiKey: settings.OPENAI_COMPATIBLE_API_KEY,
      supportsStructuredOutputs: true,
    }),
  } satisfies Record<(typeof MODEL_PROVIDERS)[number] | "offline" | "local", unknown>;
  return createProviderRegistry(providers, {
    languageModelMiddleware: idleTimeoutMiddleware(settings.MODEL_TIMEOUT_MS),
  });
}

export type ModelRegistry = ReturnType<typeof createModelRegistry>;

/** `offline` is accepted on its own; every other id must be `provider:model`. */
export function languageModel(registry: ModelRegistry, id: string) {
  const qualified = id === OFFLINE_MODEL_ID ? "offline:default" : id;
  return registry.languageModel(qualified as `offline:${string}`);
}
