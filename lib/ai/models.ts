import { createModelRegistry, languageModel, type ModelRegistry } from "./registry";

let registry: ModelRegistry | undefined;

/** The process-wide registry, built from the environment on first use. */
export function chatLanguageModel(id: string) {
  registry ??= createModelRegistry();
  return languageModel(registry, id);
}

/** The embedding model named by EMBEDDING_MODEL, or none: then search is lexical only (never fake vectors). */
export function configuredEmbeddingModel(env: Readonly<Record<string, string | undefined>> = process.env) {
  const id = env.EMBEDDING_MODEL?.trim();
  if (!id) return undefined;
  registry ??= createModelRegistry();
  return registry.embeddingModel(id as `openai:${string}`);
}
