import { createAnthropic } from "@ai-sdk/anthropic";
import { createGateway } from "@ai-sdk/gateway";
import { createGoogle } from "@ai-sdk/google";
import { createOpenAI } from "@ai-sdk/openai";
import { createOpenAICompatible } from "@ai-sdk/openai-compatible";
import { createProviderRegistry, customProvider } from "ai";
import { modelTimeoutMs, OFFLINE_MODEL_ID } from "./config";
import { idleTimeoutMiddleware } from "./idle-timeout";
import { LOCAL_EMBEDDING_MODEL, LocalEmbeddingModel } from "./local-embedding";
import { OfflineLanguageModel } from "./offline/model";

export { OFFLINE_MODEL_ID };

/**
 * Every provider a `provider:model` string can name (docs/configuration.md), configured from the environment. Every
 * language model it hands out, the chat's and the background manager's alike, fails a call that sends nothing for
 * MODEL_TIMEOUT_MS.
 */
export function createModelRegistry(env: Readonly<Record<string, string | undefined>> = process.env) {
  return createProviderRegistry(
    {
      offline: customProvider({ languageModels: { default: new OfflineLanguageModel() } }),
      local: customProvider({ embeddingModels: { [LOCAL_EMBEDDING_MODEL]: new LocalEmbeddingModel() } }),
      openai: createOpenAI({ apiKey: env.OPENAI_API_KEY }),
      anthropic: createAnthropic({ apiKey: env.ANTHROPIC_API_KEY }),
      google: createGoogle({ apiKey: env.GOOGLE_GENERATIVE_AI_API_KEY }),
      gateway: createGateway({ apiKey: env.AI_GATEWAY_API_KEY }),
      "openai-compatible": createOpenAICompatible({
        name: "openai-compatible",
        baseURL: env.OPENAI_COMPATIBLE_BASE_URL ?? "http://localhost:11434/v1",
        apiKey: env.OPENAI_COMPATIBLE_API_KEY,
        supportsStructuredOutputs: true,
      }),
    },
    { languageModelMiddleware: idleTimeoutMiddleware(modelTimeoutMs(env)) },
  );
}

export type ModelRegistry = ReturnType<typeof createModelRegistry>;

/** `offline` is accepted on its own; every other id must be `provider:model`. */
export function languageModel(registry: ModelRegistry, id: string) {
  const qualified = id === OFFLINE_MODEL_ID ? "offline:default" : id;
  return registry.languageModel(qualified as `offline:${string}`);
}
