// Extraction (docs/memory-model.md): the memory manager's pass over a thread's new messages, the record of each run,
// and reverting what a run wrote. The offline model (lib/ai/offline) speaks the manager's prompt and ops.
export { type ExtractionOp, toWireOp, type WireOp } from "./ops";
export { type PromptMemory, type PromptMessage, parseExtractionPrompt } from "./prompt";
export { revertRun } from "./revert";
export { RunSupersededError, runExtraction } from "./run";
export { failAbandonedRun, failedRunThread, serializeRun, threadExtractionRuns } from "./runs";
