/**
 * The one set of limits on what callers send the memory core. Every surface (REST, LangGraph, MCP, the chat tools,
 * the console) validates through the core's schemas built from these, so the same input meets the same limit, and
 * the same error, wherever it arrives.
 */
export const LIMITS = {
  /** Serialized content of one memory, in bytes (413 above it). */
  contentBytes: 32 * 1024,
  /** A plain memory's text, in characters. */
  memoryTextChars: 32_000,
  /** Segments of a namespace a caller names, under their root. */
  namespaceDepth: 8,
  namespaceSegmentChars: 128,
  /** A namespace written as one dotted string (a query parameter, a LangGraph `namespace`). */
  namespaceTextChars: 2_000,
  /** Listing namespaces: how deep a caller may cut them, and how many one page holds. */
  namespaceListDepth: 64,
  namespacePage: 1_000,
  /** A namespace is up to namespaceDepth segments of namespaceSegmentChars, so its cursor runs longer than others. */
  namespaceCursorChars: 8_000,
  /** The id of a thread, message or run a caller names (provenance, filters, feedback). */
  idChars: 200,
  /** A paging cursor a list handed out. */
  cursorChars: 500,
  keyChars: 256,
  kindChars: 64,
  /** Kinds one filter may name. */
  filterKinds: 20,
  /** Serialized metadata of one memory, in bytes. */
  metadataBytes: 8 * 1024,
  metadataKeyChars: 200,
  /** A metadata or content filter: fields it names, values one `$in` / `$nin` lists, and a string value's length. */
  filterFields: 20,
  filterValues: 100,
  filterValueChars: 1_000,
  reasonChars: 2_000,
  quoteChars: 8_000,
  queryChars: 2_000,
  searchResults: 100,
  /**
   * The confidence (lib/memory/search/confidence.ts) at or above which a search hit is confident: the chat recalls
   * only confident hits, and `minConfidence` asks for them. Chosen on the tune half of the bench's conversations so
   * that nine questions in ten that nothing answers, and one standard error more, get no hit this confident: a margin
   * that aims to keep nine in ten on questions it was not chosen on (docs/performance.md, "Confidence").
   */
  confidenceFloor: 0.065,
  /** What one search_memory call may return to a model (./vocabulary.ts). */
  toolSearchResults: 20,
  listPage: 200,
  /** Memories one batch write may carry. */
  batchItems: 1_000,
  /** Memories (or proposals) one console bulk action acts on: a selection from one page. */
  bulkIds: 200,
  /** A rule's text, its terms, and how many rules one user keeps. */
  ruleChars: 500,
  ruleTerms: 20,
  ruleTermChars: 64,
  rulesPerUser: 100,
  /** The console's terms box: the terms as one comma-separated text. */
  ruleTermsTextChars: 2_000,
  /** A webhook endpoint's URL, and how many endpoints one user keeps (each event fans out to every one). */
  webhookUrlChars: 2_048,
  webhooksPerUser: 20,
  /** Event types one endpoint subscribes to, and deliveries one page lists. */
  webhookEvents: 50,
  deliveriesPage: 100,
  /** A comment on an answer, and the user's standing instructions (docs/memory-model.md). */
  feedbackCommentChars: 2_000,
  instructionsChars: 4_000,
  /** A chat's title, as named by the person or written by the title model. */
  threadTitleChars: 80,
} as const;
