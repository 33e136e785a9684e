// The store: a user's memories written, changed, versioned, superseded, deleted, purged (with every copy of their
// words) and listed; the filter language over them as SQL; and the user's rules, which every write is held to.
export { filterConditions, ownedUnder } from "./filters";
export { eraseThreadWords } from "./purge-copies";
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
export {
  createMemories,
  createMemory,
  createMemoryBatch,
  createMemoryOnce,
  deleteMemory,
  existingFact,
  findMemoryByKey,
  getMemory,
  listMemories,
  listNamespaces,
  MEMORY_SORTS,
  type MemorySort,
  memoryHistories,
  memoryHistory,
  purgeMemory,
  replaceMemory,
  restoreMemory,
  toMemory,
  updateMemory,
} from "./store";
export { supersedeMemory } from "./supersede";
export type { Memory, MemorySource, SearchResult } from "./types";
