import { createTransport, type MemoryClientOptions, type RequestOptions } from "./http";
import type {
  ApprovedResponse,
  ApproveProposalRequest,
  BatchResponse,
  ConsolidationRunListResponse,
  ConsolidationRunResponse,
  CreateFeedbackRequest,
  CreateMemoryRequest,
  CreateRuleRequest,
  ExtractionQueuedResponse,
  FeedbackResponse,
  HistoryResponse,
  InstructionsResponse,
  ListConsolidationRunsRequest,
  ListMemoriesRequest,
  ListProposalsRequest,
  Memory,
  MemoryHealthResponse,
  MemoryListResponse,
  MemoryResponse,
  MeResponse,
  ProposalListResponse,
  ProposalResponse,
  PutInstructionsRequest,
  RejectProposalRequest,
  RevertRunResponse,
  RevertTurnResponse,
  RuleListResponse,
  RuleResponse,
  SearchMemoriesRequest,
  SearchResponse,
  SettingsResponse,
  ThreadExtractionResponse,
  UpdateMemoryRequest,
  UpdateSettingsRequest,
  UsageRequest,
  UsageResponse,
} from "./types";

const at = (id: string) => `/api/v1/memories/${encodeURIComponent(id)}`;
const proposalAt = (id: string) => `/api/v1/proposals/${encodeURIComponent(id)}`;

/**
 * A typed client of the REST API (/api/v1), acting as the owner of `apiKey` inside their namespace root. Each call
 * is one line over `request`, so a new route is one more line; `request` itself is public for routes not wrapped yet.
 */
export function createMemoryClient(options: MemoryClientOptions) {
  const request = createTransport(options);
  const memory = (promise: Promise<MemoryResponse>) => promise.then((response) => response.memory);
  const r = <T>(method: string, path: string, init?: RequestOptions) => request<T>(method, path, init);

  const memories = {
    create: (body: CreateMemoryRequest) => memory(r("POST", "/api/v1/memories", { body })),
    list: (query: ListMemoriesRequest = {}) => r<MemoryListResponse>("GET", "/api/v1/memories", { query }),
    get: (id: string) => memory(r("GET", at(id))),
    update: (id: string, body: UpdateMemoryRequest) => memory(r("PATCH", at(id), { body })),
    /** Soft delete (restorable, history kept); `purge: true` erases the content everywhere instead. */
    delete: (id: string, options: { purge?: boolean } = {}) =>
      memory(r("DELETE", at(id), { query: { purge: options.purge ? "true" : undefined } })),
    restore: (id: string) => memory(r("POST", `${at(id)}/restore`)),
    history: (id: string) => r<HistoryResponse>("GET", `${at(id)}/history`).then((response) => response.versions),
    search: (body: SearchMemoriesRequest) =>
      r<SearchResponse>("POST", "/api/v1/memories/search", { body }).then((response) => response.results),
    /** Up to 1,000 memories in one request; each item is accepted or rejected on its own. */
    batch: (items: CreateMemoryRequest[]) =>
      r<BatchResponse>("POST", "/api/v1/memories/batch", { body: { memories: items } }),
    /** Every page of a listing, fetched as you iterate. */
    async *listAll(query: Omit<ListMemoriesRequest, "cursor"> = {}): AsyncGenerator<Memory> {
      let cursor: string | undefined;
      do {
        const page = await memories.list({ ...query, cursor });
        yield* page.memories;
        cursor = page.nextCursor ?? undefined;
      } while (cursor);
    },
  };

  const thread = (id: string) => `/api/v1/threads/${encodeURIComponent(id)}/extraction`;
  return {
    memories,
    threads: {
      extraction: (id: string) => r<ThreadExtractionResponse>("GET", thread(id)),
      extractNow: (id: string) => r<ExtractionQueuedResponse>("POST", thread(id)),
    },
    messages: {
      /**
       * Undoes the memory changes of the chat turn this answer (an assistant message) ended; memories changed since
       * are `skipped`, the turn's pending proposals `withdrawn`. A second undo is a 409.
       */
      revert: (id: string) => r<RevertTurnResponse>("POST", `/api/v1/messages/${encodeURIComponent(id)}/revert`),
    },
    extractionRuns: {
      /** Undoes what the run applied; memories changed since are `skipped`. A second revert is a 409. */
      revert: (id: string) => r<RevertRunResponse>("POST", `/api/v1/extraction-runs/${encodeURIComponent(id)}/revert`),
    },
    /** Tidying: runs that merge duplicates, supersede old values and expire past plans, each undoable. */
    consolidationRuns: {
      /** Queues a run ("Tidy up now"); answers at once with the queued run. */
      start: () =>
        r<ConsolidationRunResponse>("POST", "/api/v1/consolidation-runs", { body: {} }).then(
          (response) => response.run,
        ),
      list: (query: ListConsolidationRunsRequest = {}) =>
        r<ConsolidationRunListResponse>("GET", "/api/v1/consolidation-runs", { query }),
      get: (id: string) =>
        r<ConsolidationRunResponse>("GET", `/api/v1/consolidation-runs/${encodeURIComponent(id)}`).then(
          (response) => response.run,
        ),
      /** Undoes what the run applied; memories changed since are `skipped`. A second revert is a 409. */
      revert: (id: string) =>
        r<RevertRunResponse>("POST", `/api/v1/consolidation-runs/${encodeURIComponent(id)}/revert`),
    },
    /** Duplicates, conflicts and expired facts counted by the consolidation pass's own finder, and the last run. */
    memoryHealth: () => r<MemoryHealthResponse>("GET", "/api/v1/memory-health"),
    // Deciding on proposals, changing settings and deleting rules take the person's own session: with an API key the
    // server answers 403 (an agent must not approve its own proposals or switch review off).
    proposals: {
      list: (query: ListProposalsRequest = {}) => r<ProposalListResponse>("GET", "/api/v1/proposals", { query }),
      approve: (id: string, body: ApproveProposalRequest = {}) =>
        r<ApprovedResponse>("POST", `${proposalAt(id)}/approve`, { body }),
      reject: (id: string, body: RejectProposalRequest = {}) =>
        r<ProposalResponse>("POST", `${proposalAt(id)}/reject`, { body }).then((response) => response.proposal),
    },
    rules: {
      list: () => r<RuleListResponse>("GET", "/api/v1/rules").then((response) => response.rules),
      create: (body: CreateRuleRequest) =>
        r<RuleResponse>("POST", "/api/v1/rules", { body }).then((response) => response.rule),
      delete: (id: string) =>
        r<RuleResponse>("DELETE", `/api/v1/rules/${encodeURIComponent(id)}`).then((response) => response.rule),
    },
    settings: {
      get: () => r<SettingsResponse>("GET", "/api/v1/settings"),
      update: (body: UpdateSettingsRequest) => r<SettingsResponse>("PATCH", "/api/v1/settings", { body }),
    },
    /** Rates one of the user's assistant answers; the instructions optimizer reads it. */
    feedback: (body: CreateFeedbackRequest) =>
      r<FeedbackResponse>("POST", "/api/v1/feedback", { body }).then((response) => response.feedback),
    // Writing instructions takes the session: they go into every chat turn's system prompt.
    instructions: {
      get: () => r<InstructionsResponse>("GET", "/api/v1/instructions"),
      put: (body: PutInstructionsRequest) => r<InstructionsResponse>("PUT", "/api/v1/instructions", { body }),
    },
    me: () => r<MeResponse>("GET", "/api/v1/me"),
    usage: (query: UsageRequest = {}) => r<UsageResponse>("GET", "/api/v1/usage", { query }),
    request,
  };
}

export type MemoryClient = ReturnType<typeof createMemoryClient>;
