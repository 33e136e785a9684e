/** Small enough to keep 100k vectors cheap to load, large enough that hashed features rarely collide. */
export const VECTOR_DIMS = 128;

/**
 * Deterministic stand-in vectors for the benchmark only (never the app): feature hashing of words and their letter
 * trigrams, L2-normalised. They carry lexical similarity, which is all a latency floor and a plausible recall need.
 */
export function hashedVector(text: string, dims = VECTOR_DIMS): number[] {
  const vector = new Array<number>(dims).fill(0);
  for (const word of text.toLowerCase().match(/[a-z0-9]{3,}/g) ?? []) {
    addFeature(vector, word, 1);
    const padded = ` ${word} `;
    for (let i = 0; i + 3 <= padded.length; i++) addFeature(vector, padded.slice(i, i + 3), 0.3);
  }
  const norm = Math.hypot(...vector) || 1;
  return vector.map((value) => value / norm);
}

function addFeature(vector: number[], feature: string, weight: number) {
  let hash = 0x811c9dc5;
  for (let i = 0; i < feature.length; i++) hash = Math.imul(hash ^ feature.charCodeAt(i), 0x01000193);
  const index = (hash >>> 0) % vector.length;
  vector[index] = (vector[index] as number) + (hash & 0x80000000 ? -weight : weight);
}
