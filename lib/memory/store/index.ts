// The store: a user's memories written, changed, versioned, superseded, deleted, purged (with every copy of their
// words) and listed; the filter language over them as SQL; and the user's rules, which every write is held to.

export { deleteMemory, purgeMemory, replaceMemory, restoreMemory, updateMemory } from "./change";
export { createMemories, createMemory, createMemoryBatch, createMemoryOnce, existingFact } from "./create";
export { filterConditions, ownedUnder } from "./filters";
export { type MergeInput, type MergeOutcome, mergeMemories } from "./merge";
export { eraseThreadWords } from "./purge-copies";
export {
  findMemoryByKey,
  getMemory,
  listMemories,
  listNamespaces,
  MEMORY_SORTS,
  type MemorySort,
  memoryHistories,
  memoryHistory,
} from "./read";
export { type RevertOutcome, revertWrites, spansOf, type WrittenSpan } from "./revert";
export { checkValidity, toMemory } from "./rows";
export {
  createRule,
  deleteRule,
  enforceRules,
  listRules,
  type Rule,
  serializeRule,
  withoutForbiddenWords,
} from "./rules";
export { serializeMemory, serializeSearchResult, serializeVersion } from "./serialize";
export { supersedeMemory } from "./supersede";
export type { ConfidenceSignals, Memory, MemorySource, SearchResult } from "./types";
export { writerColumns } from "./versioned-writes";
