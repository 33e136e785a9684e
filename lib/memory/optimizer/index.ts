// The optimizer (docs/memory-model.md): a queued pass that turns the user's feedback into a change of their
// instructions, and the record of each pass. The offline model (lib/ai/offline) speaks its prompt and answer.
export {
  OPTIMIZER_INSTRUCTIONS,
  type OptimizerAnswer,
  type OptimizerInput,
  parseOptimizerPrompt,
} from "./prompt";
export { runOptimizer } from "./run";
export { listOptimizerRuns } from "./runs";
