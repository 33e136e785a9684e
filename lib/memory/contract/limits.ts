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
  keyChars: 256,
  kindChars: 64,
  /** Serialized metadata of one memory, in bytes. */
  metadataBytes: 8 * 1024,
  metadataKeyChars: 200,
  reasonChars: 2_000,
  quoteChars: 8_000,
  queryChars: 2_000,
  searchResults: 100,
  listPage: 200,
  /** Memories one batch write may carry. */
  batchItems: 1_000,
  /** A rule's text, its terms, and how many rules one user keeps. */
  ruleChars: 500,
  ruleTerms: 20,
  ruleTermChars: 64,
  rulesPerUser: 100,
  /** A webhook endpoint's URL, and how many endpoints one user keeps (each event fans out to every one). */
  webhookUrlChars: 2_048,
  webhooksPerUser: 20,
  /** A comment on an answer, and the user's standing instructions (docs/memory-model.md). */
  feedbackCommentChars: 2_000,
  instructionsChars: 4_000,
} as const;
