// Search over a user's memories: lexical ranking (BM25 over their own words, widened by English word knowledge),
// the vectors of the vector leg and the job that computes them, the hybrid of the two, and each hit's confidence.
export { CONFIDENCE_FEATURES, confidenceOf, logisticConfidence } from "./confidence";
export {
  embeddingBacklog,
  embeddingBacklogAcrossUsers,
  embeddingModelKey,
  embedMissing,
} from "./embeddings";
export { embedAheadOfSearch, searchMemories } from "./search";
export { warmSearch } from "./warm";
