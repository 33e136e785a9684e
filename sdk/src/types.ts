import type { z } from "zod";
import type {
  consolidationRunListResponse,
  consolidationRunResponse,
  listConsolidationRunsQuery,
  memoryHealthResponse,
} from "@/lib/api/consolidation-requests";
import type {
  createMemoryBody,
  listMemoriesQuery,
  searchMemoriesBody,
  updateMemoryBody,
} from "@/lib/api/memory-requests";
import type {
  createFeedbackBody,
  feedbackResponse,
  instructionsResponse,
  putInstructionsBody,
} from "@/lib/api/procedural-requests";
import type {
  batchResponse,
  extractionQueuedResponse,
  historyResponse,
  memoryListResponse,
  memoryResponse,
  meResponse,
  revertRunResponse,
  revertTurnResponse,
  searchResponse,
  threadExtractionResponse,
  usageResponse,
} from "@/lib/api/response-schemas";
import type {
  approvedResponse,
  approveProposalBody,
  createRuleBody,
  listProposalsQuery,
  proposalListResponse,
  proposalResponse,
  rejectProposalBody,
  ruleListResponse,
  ruleResponse,
  settingsResponse,
  updateSettingsBody,
} from "@/lib/api/review-requests";
import type { usageQuery } from "@/lib/api/usage-requests";
import type { MemoryJson, MemoryVersionJson, SearchResultJson } from "@/lib/memory/contract";

// What the client sends and gets, inferred from the schemas the server validates with and answers by.

export type Memory = MemoryJson;
export type MemoryVersion = MemoryVersionJson;
export type SearchResult = SearchResultJson;

export type CreateMemoryRequest = z.input<typeof createMemoryBody>;
export type UpdateMemoryRequest = z.input<typeof updateMemoryBody>;
export type SearchMemoriesRequest = z.input<typeof searchMemoriesBody>;
/** `namespace` is dotted (`projects.ledger`); `limit` and `minConfidence` numbers, sent in the query string. */
export type ListMemoriesRequest = Omit<z.input<typeof listMemoriesQuery>, "limit" | "minConfidence"> & {
  limit?: number;
  minConfidence?: number;
};
export type UsageRequest = z.input<typeof usageQuery>;

export type MemoryResponse = z.output<typeof memoryResponse>;
export type MemoryListResponse = z.output<typeof memoryListResponse>;
export type BatchResponse = z.output<typeof batchResponse>;
export type HistoryResponse = z.output<typeof historyResponse>;
export type SearchResponse = z.output<typeof searchResponse>;
export type MeResponse = z.output<typeof meResponse>;
export type ThreadExtractionResponse = z.output<typeof threadExtractionResponse>;
export type ExtractionQueuedResponse = z.output<typeof extractionQueuedResponse>;
export type RevertRunResponse = z.output<typeof revertRunResponse>;
export type ConsolidationRunResponse = z.output<typeof consolidationRunResponse>;
export type ConsolidationRunListResponse = z.output<typeof consolidationRunListResponse>;
export type ListConsolidationRunsRequest = Omit<z.input<typeof listConsolidationRunsQuery>, "limit"> & {
  limit?: number;
};
export type MemoryHealthResponse = z.output<typeof memoryHealthResponse>;
export type RevertTurnResponse = z.output<typeof revertTurnResponse>;
export type UsageResponse = z.output<typeof usageResponse>;

/** `limit` a number, sent in the query string. */
export type ListProposalsRequest = Omit<z.input<typeof listProposalsQuery>, "limit"> & { limit?: number };
export type ApproveProposalRequest = z.input<typeof approveProposalBody>;
export type RejectProposalRequest = z.input<typeof rejectProposalBody>;
export type CreateRuleRequest = z.input<typeof createRuleBody>;
export type UpdateSettingsRequest = z.input<typeof updateSettingsBody>;
export type ProposalListResponse = z.output<typeof proposalListResponse>;
export type ApprovedResponse = z.output<typeof approvedResponse>;
export type ProposalResponse = z.output<typeof proposalResponse>;
export type RuleResponse = z.output<typeof ruleResponse>;
export type RuleListResponse = z.output<typeof ruleListResponse>;
export type SettingsResponse = z.output<typeof settingsResponse>;

export type CreateFeedbackRequest = z.input<typeof createFeedbackBody>;
export type PutInstructionsRequest = z.input<typeof putInstructionsBody>;
export type FeedbackResponse = z.output<typeof feedbackResponse>;
export type InstructionsResponse = z.output<typeof instructionsResponse>;
