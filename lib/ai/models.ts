import { createModelRegistry, languageModel, type ModelRegistry } from "./registry";

let registry: ModelRegistry | undefined;

/** The process-wide registry, built from the environment on first use. */
export function chatLanguageModel(id: string) {
  registry ??= createModelRegistry();
  return languageModel(registry, id);
}
