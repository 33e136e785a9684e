export * from "./contract/inputs";
export { LIMITS } from "./contract/limits";
export {
  actorJson,
  MEMORY_OPS,
  MEMORY_STATUSES,
  type MemoryJson,
  type MemoryVersionJson,
  memoryJson,
  memoryVersionJson,
  PROPOSAL_OPS,
  PROPOSAL_STATUSES,
  type ProposalJson,
  proposalJson,
  REVIEW_MODES,
  type RuleJson,
  ruleJson,
  type SearchResultJson,
  type SettingsJson,
  searchResultJson,
  settingsJson,
  sourceJson,
} from "./contract/shapes";
export type { Actor, ActorType, MemoryContext, MemoryPrincipal, Provenance, SourceType } from "./core/context";
export { ACTOR_TYPES, canEmbed, SOURCE_TYPES, systemClock, withUnit } from "./core/context";
export {
  MemoryConflictError,
  MemoryNotFoundError,
  NamespaceTemplateError,
  PayloadTooLargeError,
  QuotaExceededError,
} from "./core/errors";
export {
  builtInKinds,
  contentHash,
  createKindRegistry,
  defaultKinds,
  defineKind,
  type KindDefinition,
  KindRegistry,
  renderFields,
} from "./core/kinds";
export {
  absoluteNamespace,
  type Namespace,
  type NamespaceTemplate,
  parseDottedNamespace,
  relativeNamespace,
  resolveNamespaceTemplate,
  validateNamespace,
} from "./core/namespace";
export {
  type CreateFeedbackInput,
  createFeedback,
  createFeedbackInputSchema,
  type Feedback,
  listFeedback,
  MessageNotFoundError,
  serializeFeedback,
} from "./procedural/feedback";
export {
  changeInstructions,
  currentInstructions,
  handWrittenLines,
  InstructionsConflictError,
  type InstructionVersion,
  InstructionVersionNotFoundError,
  instructionHistory,
  type PutInstructionsInput,
  putInstructions,
  putInstructionsInputSchema,
  revertInstructions,
  serializeInstructions,
  serializeInstructionVersion,
} from "./procedural/instructions";
export {
  type ApprovedMemory,
  type ApprovedProposal,
  type ApproveProposalInput,
  approveProposal,
  approveProposalInputSchema,
  countPendingProposals,
  getProposal,
  type ListProposalsInput,
  listProposals,
  listProposalsInputSchema,
  type Proposal,
  ProposalConflictError,
  ProposalNotFoundError,
  pendingProposalCounts,
  type RejectProposalInput,
  rejectProposal,
  rejectProposalInputSchema,
  serializeProposal,
} from "./review/proposals";
export { gatedCreate, gatedDelete, gatedUpdate, isHeld, newReviewTurn, type ReviewTurn } from "./review/review";
export {
  DEFAULT_SETTINGS,
  getSettings,
  type ReviewMode,
  type Settings,
  type UpdateSettingsInput,
  updateSettings,
  updateSettingsInputSchema,
} from "./review/settings";
export {
  embeddingBacklog,
  embeddingBacklogAcrossUsers,
  embeddingModelKey,
  embedMissing,
} from "./search/embeddings";
export {
  SEARCH_MODES,
  type SearchMemoriesInput,
  type SearchMode,
  searchMemories,
  searchMemoriesInputSchema,
  VECTOR_WEIGHT,
} from "./search/search";
export { warmWordLexemes } from "./search/word-lexemes";
export {
  type FieldFilter,
  fieldFilterSchema,
  type MemoryFilters,
  memoryFiltersSchema,
  type StatusFilter,
  statusFilterSchema,
} from "./store/filters";
export {
  brokenRule,
  type CreateRuleInput,
  createRule,
  createRuleInputSchema,
  deleteRule,
  listRules,
  type Rule,
  RuleNotFoundError,
  RuleViolationError,
  serializeRule,
} from "./store/rules";
export { serializeMemory, serializeSearchResult, serializeVersion } from "./store/serialize";
export {
  type BatchOutcome,
  type CreateMemoryInput,
  createMemories,
  createMemory,
  createMemoryBatch,
  createMemoryInputSchema,
  createMemoryOnce,
  deleteMemory,
  existingFact,
  findMemoryByKey,
  getMemory,
  type ListMemoriesInput,
  type ListNamespacesInput,
  listMemories,
  listNamespaces,
  MEMORY_SORTS,
  type MemoryPage,
  type MemorySort,
  memoryHistories,
  memoryHistory,
  purgeMemory,
  replaceMemory,
  restoreMemory,
  type UpdateMemoryInput,
  updateMemory,
  type WriteOptions,
} from "./store/store";
export { type SupersedeMemoryInput, supersedeMemory, supersedeMemoryInputSchema } from "./store/supersede";
export type { Memory, MemoryOp, MemorySource, MemoryStatus, MemoryVersion, SearchResult } from "./store/types";
export {
  addUsage,
  type DayUsage,
  dailyUsage,
  type Pricing,
  recordUsage,
  runCosts,
  spentOnDay,
  type TokenUsage,
  tokensOnDay,
  USAGE_KINDS,
  type UsageEntry,
  type UsageKind,
  type UsageTotals,
  utcDay,
} from "./usage/usage";
