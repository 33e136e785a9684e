import type { Call } from "../http-client";
import { type LatencySummary, mean, summarize } from "../metrics";
import { type Clock, type Found, pollUntilFound } from "../waiting";

export interface SearchableFigure {
  /** Writes whose memory this mode's search returned before the time ran out. */
  found: number;
  /** Over the writes found: from the write's answer to the answer of the search that returned it. */
  ms: LatencySummary;
  /** Searches per write, the finding one included. */
  meanPolls: number;
}

export interface WriteToSearchable {
  writes: number;
  intervalMs: number;
  timeoutMs: number;
  lexical: SearchableFigure;
  /** Where the server runs vectors only. */
  vector?: SearchableFigure;
}

/** Made-up names and odd nouns: no generated memory holds them, so the new memory is the one that matches best. */
const NAMES = ["Quillon", "Marzipella", "Thorvik", "Zephyrine", "Ogwald", "Brisquet", "Velloran", "Pimbrook"];
const CREATURES = ["axolotl", "pangolin", "okapi", "quokka", "narwhal", "tapir", "capybara"];
const THINGS = ["brass thimbles", "saffron candles", "walnut dominoes", "copper kazoos", "indigo marbles"];
const PLACES = ["lighthouse", "observatory", "boathouse"];

/** The `index`th probe's sentence, a memory of its own and the query that looks for it. */
export function probeSentence(index: number): string {
  const pick = (list: readonly string[], step: number) => list[(index * step) % list.length] as string;
  return `${pick(NAMES, 1)} the ${pick(CREATURES, 3)} hid ${index + 2} ${pick(THINGS, 2)} in the ${pick(PLACES, 1)}`;
}

/**
 * Writes `writes` new memories one after another and, after each write's answer, asks a lexical search and (where the
 * server runs vectors) a vector search for it at once, each on its own connection, each until it returns the memory.
 * A lexical search can find it as soon as the write has committed; a vector search only once the embedding job has
 * written its vector (after the commit, docs/api.md), so the two times say how far behind the vectors are.
 */
export async function writeToSearchable(
  calls: { write: Call; lexical: Call; vector?: Call },
  options: { writes: number; intervalMs: number; timeoutMs: number; clock?: Clock },
): Promise<WriteToSearchable> {
  const lexical: Found[] = [];
  const vector: Found[] = [];
  for (let index = 0; index < options.writes; index++) {
    const sentence = probeSentence(index);
    const written = await calls.write("POST", "/api/v1/memories", { kind: "memory", content: { content: sentence } });
    if (written.status !== 201) throw new Error(`POST /api/v1/memories answered ${written.status}`);
    const id = (written.body as { memory: { id: string } }).memory.id;
    const poll = (call: Call, mode: "lexical" | "vector") =>
      pollUntilFound(
        () => call("POST", "/api/v1/memories/search", { query: sentence, limit: 10, mode }),
        (answer) => {
          if (answer.status !== 200) throw new Error(`a ${mode} search answered ${answer.status}`);
          return (answer.body as { results: Array<{ memory: { id: string } }> }).results.some(
            (result) => result.memory.id === id,
          );
        },
        options,
      );
    const [byWords, byMeaning] = await Promise.all([
      poll(calls.lexical, "lexical"),
      calls.vector ? poll(calls.vector, "vector") : undefined,
    ]);
    lexical.push(byWords);
    if (byMeaning) vector.push(byMeaning);
  }
  return {
    writes: options.writes,
    intervalMs: options.intervalMs,
    timeoutMs: options.timeoutMs,
    lexical: summarizeFound(lexical),
    ...(calls.vector ? { vector: summarizeFound(vector) } : {}),
  };
}

export function summarizeFound(found: readonly Found[]): SearchableFigure {
  const times = found.flatMap((entry) => (entry.ms === undefined ? [] : [entry.ms]));
  return { found: times.length, ms: summarize(times), meanPolls: mean(found.map((entry) => entry.polls)) };
}
