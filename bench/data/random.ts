/** A small seeded PRNG (mulberry32): the same seed always yields the same sequence, on every machine. */
export class Random {
  #state: number;

  constructor(seed: number) {
    this.#state = seed >>> 0;
  }

  /** A float in [0, 1). */
  next(): number {
    this.#state = (this.#state + 0x6d2b79f5) >>> 0;
    let t = this.#state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  }

  int(maxExclusive: number): number {
    return Math.floor(this.next() * maxExclusive);
  }

  pick<T>(items: readonly T[]): T {
    return items[this.int(items.length)] as T;
  }

  chance(probability: number): boolean {
    return this.next() < probability;
  }

  /** `count` distinct items in random order. */
  sample<T>(items: readonly T[], count: number): T[] {
    const copy = [...items];
    for (let i = copy.length - 1; i > 0; i--) {
      const j = this.int(i + 1);
      [copy[i], copy[j]] = [copy[j] as T, copy[i] as T];
    }
    return copy.slice(0, count);
  }
}

/** Swaps two adjacent letters of one longer word, the commonest typing slip. */
export function withTypo(random: Random, sentence: string): string {
  const words = sentence.split(" ");
  const candidates = words.flatMap((word, index) => (/^[a-z]{5,}$/i.test(word) ? [index] : []));
  if (candidates.length === 0) return sentence;
  const index = random.pick(candidates);
  const word = words[index] as string;
  const at = 1 + random.int(word.length - 3);
  words[index] = word.slice(0, at) + word[at + 1] + word[at] + word.slice(at + 2);
  return words.join(" ");
}
