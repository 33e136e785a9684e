export { checkAnswer, type Verdict } from "./answer";
export {
  buildOptimizerPrompt,
  OPTIMIZER_INSTRUCTIONS,
  type OptimizerAnswer,
  type OptimizerInput,
  optimizerAnswerSchema,
  type PromptFeedback,
  parseOptimizerPrompt,
} from "./prompt";
export { type OptimizerDeps, type OptimizerOutcome, runOptimizer } from "./run";
export { listOptimizerRuns, type OptimizerRun } from "./runs";
