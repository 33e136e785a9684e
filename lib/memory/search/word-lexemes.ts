import { sql } from "drizzle-orm";
import type { Database } from "@/lib/db/client";
import type { UnitOfWork } from "@/lib/db/unit-of-work";
import { textArray } from "@/lib/memory/core";
import { processState } from "@/lib/process-state";
import { everyRelatedWord } from "./wordnet";

/** Words a process keeps the lexemes of, per database (a noun can stand for 55,239 words in all); then it starts over. */
const REMEMBERED_WORDS = 200_000;

/**
 * The full-text lexemes of words as the database reads memories (memory_fts), kept per process and database: a
 * question's nouns stand for hundreds of related words, and stemming them on every search cost more than the rest of
 * the search. A stop word has none. Words not yet known are stemmed in one statement of `unit`.
 */
export async function lexemesOfWords(
  database: Database,
  unit: Pick<UnitOfWork, "rows">,
  words: readonly string[],
): Promise<(word: string) => readonly string[]> {
  const remembered = processState("word-lexemes", () => new WeakMap<Database, Map<string, readonly string[]>>());
  let known = remembered.get(database);
  if (!known || known.size + words.length > REMEMBERED_WORDS) {
    // A new map, not a cleared one: a search still reading the old one keeps what it was given.
    known = new Map();
    remembered.set(database, known);
  }
  const unknown = [...new Set(words)].filter((word) => !known.has(word));
  if (unknown.length > 0) {
    const rows = await unit.rows<{ word: string; lexemes: string[] }>(sql`
      select w.word, tsvector_to_array(memory_fts(w.word)) as lexemes from unnest(${textArray(unknown)}) as w(word)`);
    for (const row of rows) known.set(row.word, row.lexemes);
  }
  const lexemes = known;
  return (word) => lexemes.get(word) ?? [];
}

/** Words per warming statement: PGlite has one connection, and requests wait behind each statement. */
const WARM_CHUNK = 2_000;

/**
 * Stems every word a noun can stand for (about 55,000, `everyRelatedWord`) into this process's map for `database`,
 * a chunk per statement: a server does it once when it starts (`warmSearch`), so that no user's first question about a
 * noun waits for its synsets to be read and its related words to be stemmed (5-15 ms, once per noun).
 */
export async function warmWordLexemes(database: Database): Promise<void> {
  const words = everyRelatedWord();
  for (let at = 0; at < words.length; at += WARM_CHUNK) {
    await lexemesOfWords(database, database.unbound, words.slice(at, at + WARM_CHUNK));
  }
}
