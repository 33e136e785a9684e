// A worker thread of the candidate finder's vector leg (lib/memory/consolidation/close-leg.ts): it compares one
// user's vectors, every two of a block, off the event loop and off the database's connection, which on PGlite are
// the server's own (docs/performance.md, "Memory hygiene"). Plain JavaScript: worker threads load it with Node itself,
// in the dev server, the production server, the queue's workers and the tests alike.

/**
 * Cosine similarity of two memories' vectors from which they are shown to the model together ("close"): with the
 * bundled encoder, restatements in other words score 0.76–0.92 and unrelated facts of one user 0.4–0.5.
 */
const CLOSE_SIMILARITY = 0.75;
/** Nearest neighbours per memory the vector leg pairs it with at most. */
const CLOSE_NEIGHBOURS = 4;
/**
 * Cosine similarity from which two memories that are each other's nearest neighbour among the user's memories of one
 * namespace and kind are shown together too ("close"), however far below CLOSE_SIMILARITY: a restatement in a style
 * of its own ("User's weekends are for hiking" beside "User is very into hiking") or a new value said another way
 * ("signed the lease on a flat in Porto" beside "renting a place in Lisbon") scores 0.5–0.7, yet stands out of the
 * user's other memories as each other's nearest (docs/memory-model.md, "Consolidation"). The floor only keeps a user
 * with a few unrelated memories from having them all shown.
 */
const MUTUAL_SIMILARITY = 0.45;

/**
 * @typedef {import("./close-pairs-worker.d.mts").VectorRow} VectorRow
 * @typedef {import("./close-pairs-worker.d.mts").ClosePair} ClosePair
 */

/**
 * The vector leg's pairs: each probed memory with its CLOSE_NEIGHBOURS nearest within CLOSE_SIMILARITY, and with its
 * nearest when that one's nearest is it in turn, within MUTUAL_SIMILARITY. Only memories of one block and of one
 * vector length are compared. A pair is looked at from one side: the probed memory with the lower id, or the probed
 * one when the other was not probed; a memory's nearest is, of two as near, the lower id.
 * @param {{ rows: VectorRow[] }} task
 * @returns {ClosePair[]}
 */
export default function closePairs({ rows }) {
  /** @type {Map<string, VectorRow[]>} */
  const blocks = new Map();
  for (const row of rows) {
    const vector = JSON.parse(row.vector);
    const key = `${row.block}\u0000${vector.length}`;
    const block = blocks.get(key) ?? [];
    block.push({ ...row, vector });
    blocks.set(key, block);
  }
  /** @type {Map<string, ClosePair>} */
  const pairs = new Map();
  for (const members of blocks.values()) {
    for (const pair of blockPairs(members)) pairs.set(`${pair.a} ${pair.b}`, pair);
  }
  return [...pairs.values()];
}

/** @param {Array<Omit<VectorRow, "vector"> & { vector: number[] }>} members */
function blockPairs(members) {
  // In id order, so that "the lower id" is the lower index (uuids in their text form sort as PostgreSQL sorts them).
  members.sort((x, y) => (x.id < y.id ? -1 : x.id > y.id ? 1 : 0));
  const n = members.length;
  const dims = members[0]?.vector.length ?? 0;
  const vectors = new Float32Array(n * dims);
  const norms = new Float32Array(n);
  for (const [i, member] of members.entries()) {
    vectors.set(member.vector, i * dims);
    norms[i] = squaredNorm(vectors, i * dims, dims);
  }
  const probed = members.map((member) => member.probed);
  /** Each probed memory's neighbours within CLOSE_SIMILARITY it may pair with, nearest first: [distance, index]. */
  const neighbours = members.map(() => /** @type {Array<[number, number]>} */ ([]));
  /** Each memory's nearest, [distance, index]: for the probed ones, from the comparisons below. */
  const nearest = members.map(() => /** @type {[number, number]} */ ([Number.POSITIVE_INFINITY, -1]));
  const distance = (i, j) => cosineDistance(vectors, i * dims, j * dims, dims, norms[i], norms[j]);
  for (let i = 0; i < n; i++) {
    for (let j = i + 1; j < n; j++) {
      if (!probed[i] && !probed[j]) continue;
      const d = distance(i, j);
      if (probed[i]) {
        keepNearest(nearest[i], d, j);
        // From i, the lower id: j is a neighbour whether or not it was probed.
        if (d <= 1 - CLOSE_SIMILARITY) keepNeighbour(neighbours[i], d, j);
      }
      if (probed[j]) {
        keepNearest(nearest[j], d, i);
        // From j, the higher id: only when i was not probed, or i's own probe pairs them.
        if (!probed[i] && d <= 1 - CLOSE_SIMILARITY) keepNeighbour(neighbours[j], d, i);
      }
    }
  }
  /** The nearest of a memory that was not probed, when a probed one's nearest is it. */
  const nearestOf = (k) => {
    if (probed[k] || nearest[k][1] >= 0) return nearest[k];
    for (let j = 0; j < n; j++) if (j !== k) keepNearest(nearest[k], distance(k, j), j);
    return nearest[k];
  };
  /** @type {ClosePair[]} */
  const found = [];
  const pair = (i, j) => {
    const [low, high] = i < j ? [i, j] : [j, i];
    found.push({ a: members[low].id, av: members[low].version, b: members[high].id, bv: members[high].version });
  };
  for (let i = 0; i < n; i++) {
    if (!probed[i]) continue;
    for (const [, j] of neighbours[i]) pair(i, j);
    const [d, j] = nearest[i];
    if (j >= 0 && d <= 1 - MUTUAL_SIMILARITY && nearestOf(j)[1] === i) pair(i, j);
  }
  return found;
}

/**
 * The cosine distance of two vectors of one length, as the comparisons compute it (cosineDistance).
 * @param {number[]} x
 * @param {number[]} y
 */
export function cosineDistanceOf(x, y) {
  const vectors = new Float32Array([...x, ...y]);
  const dims = x.length;
  return cosineDistance(vectors, 0, dims, dims, squaredNorm(vectors, 0, dims), squaredNorm(vectors, dims, dims));
}

/** `[distance, index]` becomes (d, k) when that is nearer, or as near with a lower index. */
function keepNearest(best, d, k) {
  if (before(d, k, best[0], best[1])) {
    best[0] = d;
    best[1] = k;
  }
}

/** Adds (d, k) to a list kept sorted and at most CLOSE_NEIGHBOURS long. */
function keepNeighbour(list, d, k) {
  let at = list.length;
  while (at > 0 && before(d, k, list[at - 1][0], list[at - 1][1])) at--;
  if (at >= CLOSE_NEIGHBOURS) return;
  list.splice(at, 0, [d, k]);
  if (list.length > CLOSE_NEIGHBOURS) list.pop();
}

/** PostgreSQL's order of (distance, id): an undefined distance (a vector of zeros) after every other. */
function before(d, k, bestD, bestK) {
  const x = Number.isNaN(d) ? Number.POSITIVE_INFINITY : d;
  const y = Number.isNaN(bestD) ? Number.POSITIVE_INFINITY : bestD;
  return x < y || (x === y && k < bestK);
}

/** Σ v², summed in single precision in index order, as PGlite's pgvector sums it. */
function squaredNorm(vectors, at, dims) {
  let sum = 0;
  for (let k = 0; k < dims; k++) sum = Math.fround(sum + Math.fround(vectors[at + k] * vectors[at + k]));
  return sum;
}

/**
 * pgvector's cosine distance (`<=>`) as PGlite's build computes it: the dot product and the squared norms summed in
 * single precision in index order, their quotient in double precision, clamped to [-1, 1]; undefined (NaN) for a
 * vector of zeros. A native build may vectorize the sums, and so differ in the last bit, which moves only a pair at
 * an exact tie or exactly at a threshold.
 */
function cosineDistance(vectors, x, y, dims, normX, normY) {
  let dot = 0;
  for (let k = 0; k < dims; k++) dot = Math.fround(dot + Math.fround(vectors[x + k] * vectors[y + k]));
  const similarity = dot / Math.sqrt(normX * normY);
  if (Number.isNaN(similarity)) return Number.NaN;
  return 1 - Math.min(1, Math.max(-1, similarity));
}
