// Types of the comparing thread's module (close-pairs-worker.mjs), which worker threads load as plain JavaScript.

/** A live memory with a vector: `block` names its namespace and kind; `vector` is pgvector's text form. */
export interface VectorRow {
  id: string;
  version: number;
  block: string;
  probed: boolean;
  vector: string;
}

/** A pair the vector leg found: the lower id and its version first. */
export interface ClosePair {
  a: string;
  av: number;
  b: string;
  bv: number;
}

export default function closePairs(task: { rows: VectorRow[] }): ClosePair[];
export function cosineDistanceOf(x: number[], y: number[]): number;
