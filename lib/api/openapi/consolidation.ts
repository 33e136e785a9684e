// The REST operations of consolidation runs and memory health (docs/memory-model.md, "Consolidation").

import {
  consolidationRunListResponse,
  consolidationRunResponse,
  listConsolidationRunsQuery,
  memoryHealthResponse,
  startConsolidationBody,
} from "../consolidation-requests";
import { revertRunResponse } from "../response-schemas";
import type { Operation } from "./operation";

export const consolidationOperations: Operation[] = [
  {
    method: "post",
    path: "/api/v1/consolidation-runs",
    operationId: "startConsolidationRun",
    tag: "Consolidation",
    summary: "Tidy up now",
    description:
      "Queues a consolidation run for the caller: duplicates merged, old values superseded, past plans expired, each through review and undoable. The body is `{}`. Two runs of one user never overlap: a run asked for while one waits is taken by it.",
    body: startConsolidationBody,
    success: { status: 202, description: "The queued run.", schema: consolidationRunResponse },
    errors: [400, 401, 403, 413, 415, 422, 429],
    scope: "write",
  },
  {
    method: "get",
    path: "/api/v1/consolidation-runs",
    operationId: "listConsolidationRuns",
    tag: "Consolidation",
    summary: "List consolidation runs",
    description: "The caller's runs, newest first with a cursor.",
    query: listConsolidationRunsQuery,
    success: { status: 200, description: "A page of runs.", schema: consolidationRunListResponse },
    errors: [401, 403, 422, 429],
    scope: "read",
  },
  {
    method: "get",
    path: "/api/v1/consolidation-runs/{id}",
    operationId: "getConsolidationRun",
    tag: "Consolidation",
    summary: "Get a consolidation run",
    description: "Status, groups shown, ops proposed, applied and rejected with reasons, model, tokens and cost.",
    success: { status: 200, description: "The run.", schema: consolidationRunResponse },
    errors: [401, 403, 404, 422, 429],
    scope: "read",
  },
  {
    method: "post",
    path: "/api/v1/consolidation-runs/{id}/revert",
    operationId: "revertConsolidationRun",
    tag: "Consolidation",
    summary: "Undo a consolidation run",
    description:
      "Like an extraction run's revert: every memory the run changed goes back to the version it had (a merged memory is active again, a closed fact open again), as new versions by the caller whose reason names the run; one changed since keeps that change and is listed in `skipped`. A run reverts once: again, or a run still queued or running, is a 409.",
    success: { status: 200, description: "What was reverted and what was left alone.", schema: revertRunResponse },
    errors: [401, 403, 404, 409, 422, 429],
    scope: "write",
  },
  {
    method: "get",
    path: "/api/v1/memory-health",
    operationId: "getMemoryHealth",
    tag: "Consolidation",
    summary: "Memory health",
    description:
      "Counts computed in SQL by the same candidate finder a consolidation run works from: what the card on the console home shows is what the next run would look at.",
    success: { status: 200, description: "The counts and the last run.", schema: memoryHealthResponse },
    errors: [401, 403, 429],
    scope: "read",
  },
];
