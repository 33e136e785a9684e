// Consolidation (docs/memory-model.md, "Consolidation"): the queued pass that merges, supersedes and expires a user's
// memories through the gate, the candidate finder it and the memory health card share, and the record of each run.
// The offline model (lib/ai/offline) speaks its prompt and answer.
export { type CandidateGroup, candidateGroups, findCandidates } from "./candidates";
export { memoryHealth } from "./health";
export {
  CONSOLIDATION_INSTRUCTIONS,
  type ConsolidationInput,
  type ConsolidationWireOp,
  parseConsolidationPrompt,
} from "./prompt";
export { type ConsolidationJob, type ConsolidationOutcome, runConsolidation } from "./run";
export {
  addedSinceLastRun,
  type ConsolidationRun,
  ConsolidationRunNotFoundError,
  type ConsolidationTrigger,
  getRun as getConsolidationRun,
  listRuns as listConsolidationRuns,
  listRunsInputSchema as listConsolidationRunsInputSchema,
  queueRun as queueConsolidationRun,
  revertConsolidationRun,
  serializeConsolidationRun,
} from "./runs";
