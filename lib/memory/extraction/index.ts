export {
  type AppliedOp,
  type ExtractionOp,
  extractionOpSchema,
  type ManagerAnswer,
  managerAnswerSchema,
  parseManagerAnswer,
  type RejectedOp,
  toWireOp,
  type WireOp,
} from "./ops";
export { EXTRACTION_INSTRUCTIONS } from "./prompt";
export { type RevertOutcome, RunNotRevertibleError, revertRun } from "./revert";
export {
  type ExtractionConfig,
  type ExtractionDeps,
  type ExtractionJob,
  type ExtractionOutcome,
  isDeterministicFailure,
  RunSupersededError,
  runExtraction,
  UnreadableAnswerError,
} from "./run";
export {
  ABANDONED_RUN_ERROR,
  type ExtractionRun,
  failAbandonedRun,
  failedRunThread,
  serializeRun,
  threadExtractionRuns,
} from "./runs";
