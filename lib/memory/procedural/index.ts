// Procedural memory (docs/memory-model.md): the user's ratings of answers, and their standing instructions, each
// change of them one numbered version saying who made it and why.
export {
  createFeedback,
  type Feedback,
  listFeedback,
  serializeFeedback,
} from "./feedback";
export {
  changeInstructions,
  currentInstructions,
  handWrittenLines,
  InstructionsConflictError,
  type InstructionVersion,
  instructionHistory,
  linesOf,
  putInstructions,
  revertInstructions,
  serializeInstructions,
  serializeInstructionVersion,
} from "./instructions";
