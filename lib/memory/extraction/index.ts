export { type AppliedOp, type ExtractionOp, extractionOpSchema, extractionOutputSchema, type RejectedOp } from "./ops";
export { EXTRACTION_INSTRUCTIONS } from "./prompt";
export {
  type ExtractionConfig,
  type ExtractionDeps,
  type ExtractionJob,
  type ExtractionOutcome,
  RunSupersededError,
  runExtraction,
} from "./run";
export {
  ABANDONED_RUN_ERROR,
  type ExtractionRun,
  failAbandonedRun,
  failedRunThread,
  serializeRun,
  threadExtractionRuns,
} from "./runs";
