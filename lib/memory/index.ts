export type { Actor, ActorType, MemoryContext, MemoryPrincipal, Provenance, SourceType } from "./context";
export { systemClock } from "./context";
export { canEmbed, embeddingModelKey, embedMissing } from "./embeddings";
export {
  MemoryConflictError,
  MemoryError,
  MemoryNotFoundError,
  MemoryValidationError,
  NamespaceTemplateError,
  PayloadTooLargeError,
  type ValidationIssue,
} from "./errors";
export {
  type FieldFilter,
  fieldFilterSchema,
  type MemoryFilters,
  memoryFiltersSchema,
  type StatusFilter,
  statusFilterSchema,
} from "./filters";
export {
  builtInKinds,
  contentHash,
  createKindRegistry,
  defaultKinds,
  defineKind,
  type KindDefinition,
  KindRegistry,
  MAX_CONTENT_BYTES,
  renderFields,
} from "./kinds";
export {
  absoluteNamespace,
  MAX_NAMESPACE_DEPTH,
  MAX_SEGMENT_LENGTH,
  type Namespace,
  type NamespaceTemplate,
  parseDottedNamespace,
  relativeNamespace,
  resolveNamespaceTemplate,
  validateNamespace,
} from "./namespace";
export { type SearchMemoriesInput, searchMemories, searchMemoriesInputSchema } from "./search";
export {
  type MemoryJson,
  type MemoryVersionJson,
  serializeMemory,
  serializeSearchResult,
  serializeVersion,
} from "./serialize";
export {
  type CreateMemoryInput,
  createMemories,
  createMemory,
  deleteMemory,
  findMemoryByKey,
  getMemory,
  type ListMemoriesInput,
  type ListNamespacesInput,
  listMemories,
  listNamespaces,
  type MemoryPage,
  memoryHistories,
  memoryHistory,
  purgeMemory,
  replaceMemory,
  restoreMemory,
  type UpdateMemoryInput,
  updateMemory,
  type WriteOptions,
} from "./store";
export {
  createMemoryTools,
  MANAGE_ACTIONS,
  type ManageAction,
  type ManageMemoryInput,
  type ManageMemoryOutput,
  type MemoryToolsOptions,
  type SearchMemoryHit,
  type SearchMemoryInput,
} from "./tools";
export type { Memory, MemoryOp, MemorySource, MemoryStatus, MemoryVersion, SearchResult } from "./types";
