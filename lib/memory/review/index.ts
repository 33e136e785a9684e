// Review (docs/memory-model.md): a model's write applies, or waits as a proposal for the user, by their review mode;
// proposals are listed, approved (written through the store) or rejected.
export { type ApprovedMemory, approveProposal, rejectProposal } from "./decide";
export {
  addToPendingInstructionsChange,
  countPendingProposals,
  listProposals,
  matchingProposal,
  type Proposal,
  pendingProposalCounts,
  propose,
  serializeProposal,
} from "./proposals";
export {
  gatedCreate,
  gatedDelete,
  gatedUpdate,
  type Held,
  isHeld,
  newReviewTurn,
  type ReviewTurn,
  reviewReason,
} from "./review";
export { getSettings, type ReviewMode, updateSettings } from "./settings";
