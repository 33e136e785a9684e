// The REST operations on a thread's extraction runs.

import {
  extractionQueuedResponse,
  revertRunResponse,
  revertTurnResponse,
  threadExtractionResponse,
} from "../response-schemas";
import type { Operation } from "./operation";

export const threadOperations: Operation[] = [
  {
    method: "get",
    path: "/api/v1/threads/{id}/extraction",
    operationId: "threadExtraction",
    tag: "Threads",
    summary: "Extraction runs of a chat thread",
    description: "The latest background extraction runs with their status and proposed, applied and rejected ops.",
    success: { status: 200, description: "The thread's runs.", schema: threadExtractionResponse },
    errors: [401, 403, 404, 429],
    scope: "read",
  },
  {
    method: "post",
    path: "/api/v1/threads/{id}/extraction",
    operationId: "runThreadExtraction",
    tag: "Threads",
    summary: "Run extraction for a thread now",
    description: "Queues a run over every message after the thread's extraction cursor, e.g. after a failed run.",
    success: { status: 202, description: "Queued.", schema: extractionQueuedResponse },
    errors: [401, 403, 404, 429],
    scope: "write",
  },
  {
    method: "post",
    path: "/api/v1/extraction-runs/{id}/revert",
    operationId: "revertExtractionRun",
    tag: "Threads",
    summary: "Undo an extraction run",
    description:
      "Reverses every op the run applied, as new versions by the caller whose reason names the run: an inserted memory is deleted (a tombstone), an updated one goes back to the version before, a deleted one is restored. A memory changed since the run keeps that change and is listed in `skipped` with the reason. All in one transaction. A run reverts once: reverting it again, or a run that did not succeed (queued, running, failed, skipped), is a 409. Another user's run is a 404.",
    success: { status: 200, description: "What was reverted and what was left alone.", schema: revertRunResponse },
    errors: [401, 403, 404, 409, 422, 429],
    scope: "write",
  },
  {
    method: "post",
    path: "/api/v1/messages/{id}/revert",
    operationId: "revertChatTurn",
    tag: "Threads",
    summary: "Undo a chat turn's memory changes",
    description:
      "For an assistant message: undoes what the chat model changed in memory during the turn that answer ended, with the semantics of reverting a run — a memory it saved is deleted (a tombstone), one it changed goes back to the version before the turn, one it deleted is restored, each as a new version by the caller whose reason names the answer; a memory changed since the turn keeps that change and is listed in `skipped` with the reason. The turn's proposals still waiting for review are rejected as withdrawn. All in one transaction. A turn is undone once: again is a 409. A user's message is a 422; another user's message a 404. Background extraction of the same messages is undone with its run (`/api/v1/extraction-runs/{id}/revert`).",
    success: { status: 200, description: "What was reverted, left alone and withdrawn.", schema: revertTurnResponse },
    errors: [401, 403, 404, 409, 422, 429],
    scope: "write",
  },
];
