// Review (docs/memory-model.md): the gate every model's write passes — it applies, waits as a proposal for the user,
// or is refused — and the proposals, listed, approved (written through the store) or rejected.
export { type ConsolidationDecision, type ConsolidationWrite, gateConsolidation } from "./consolidate";
export { type ApprovedMemory, approveProposal, rejectProposal } from "./decide";
export {
  type GateDecision,
  gate,
  instructionsReviewReason,
  type ModelWrite,
  newReviewTurn,
  type ReviewTurn,
} from "./gate";
export {
  addToPendingInstructionsChange,
  countPendingProposals,
  listProposals,
  type Proposal,
  pendingProposalCounts,
  propose,
  serializeProposal,
} from "./proposals";
export { type UserRejections, userRejections } from "./rejected-changes";
export { getSettings, type ReviewMode, updateSettings } from "./settings";
