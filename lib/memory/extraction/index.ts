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
export { type ExtractionRun, failedRunThread, serializeRun, threadExtractionRuns } from "./runs";
