// Search over a user's memories: lexical ranking (BM25 over their own words, widened by English word knowledge),
// the vectors of the vector leg and the job that computes them, and the hybrid of the two.
export { embeddingBacklog, embeddingBacklogAcrossUsers, embeddingModelKey, embedMissing } from "./embeddings";
export { searchMemories } from "./search";
export { warmWordLexemes } from "./word-lexemes";
