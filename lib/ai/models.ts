import { type Config, config } from "@/lib/config";
import { embeddingModelId } from "./config";
import { createModelRegistry, languageModel, type ModelRegistry } from "./registry";

/** One registry per configuration: built on first use, and built again when the configuration is read again. */
const registries = new WeakMap<Config, ModelRegistry>();

function registryFor(settings: Config): ModelRegistry {
  let registry = registries.get(settings);
  if (!registry) {
    registry = createModelRegistry(settings);
    registries.set(settings, registry);
  }
  return registry;
}

export function chatLanguageModel(id: string) {
  return languageModel(registryFor(config()), id);
}

/**
 * The embedding model EMBEDDING_MODEL names: unset means the bundled local encoder (semantic recall with no key),
 * `none` no vectors at all (search is lexical only; never fake vectors), `provider:model` that provider's model.
 */
export function configuredEmbeddingModel(settings: Config = config()) {
  const id = embeddingModelId(settings);
  if (id === null) return undefined;
  return registryFor(settings).embeddingModel(id as `local:${string}`);
}
