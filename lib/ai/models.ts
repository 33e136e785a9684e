import { type Config, config } from "@/lib/config";
import { embeddingModelId } from "./config";
import { createModelRegistry, languageModel, type ModelRegistry } from "./registry";

let registry: ModelRegistry | undefined;

/** The process-wide registry, built from the configuration on first use. */
export function chatLanguageModel(id: string) {
  registry ??= createModelRegistry();
  return languageModel(registry, id);
}

/**
 * The embedding model EMBEDDING_MODEL names: unset means the bundled local encoder (semantic recall with no key),
 * `none` no vectors at all (search is lexical only; never fake vectors), `provider:model` that provider's model.
 */
export function configuredEmbeddingModel(settings: Config = config()) {
  const id = embeddingModelId(settings);
  if (id === null) return undefined;
  registry ??= createModelRegistry();
  return registry.embeddingModel(id as `local:${string}`);
}
