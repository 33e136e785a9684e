import { writeFileSync } from "node:fs";
import { sql } from "drizzle-orm";
import { LOCAL_EMBEDDING_MODEL_ID } from "@/lib/ai/local-embedding";
import { openPglite } from "@/lib/db/client";
import { searchMemories, warmSearch } from "@/lib/memory/search";
import { generateConversations, type SpeakerStyle } from "./data/conversations";
import { scales } from "./data/scales";
import { meteredModel, resolveEmbeddingModel } from "./embedding";
import { ledgerStore } from "./peers/ledger";

/*
 * The recall suite's conversations, loaded once into PGlite with the bundled encoder's vectors, and every question
 * (answerable or not) asked in lexical and hybrid mode for the top 20: each hit's confidence signals, whether it is
 * evidence, written as JSON lines to the path given (default /tmp/confidence-signals.jsonl). The confidence's weights
 * and floor (lib/memory/search/confidence.ts) were fitted on the tune half's lines (docs/performance.md, "Search
 * quality"). `npx tsx bench/tune-confidence.ts [out]`.
 */
const out = process.argv[2] ?? "/tmp/confidence-signals.jsonl";
const log = (message: string) => process.stderr.write(`[tune] ${message}\n`);

async function main() {
  const database = await openPglite();
  const store = ledgerStore("tune", database, {
    embedding: meteredModel(resolveEmbeddingModel(LOCAL_EMBEDDING_MODEL_ID)),
  });
  await warmSearch(database);
  const lines: string[] = [];
  for (const style of ["named", "bare"] as SpeakerStyle[]) {
    const everyone = generateConversations(42, scales["100k"].conversations, style);
    log(`loading ${style}: ${everyone.reduce((sum, user) => sum + user.memories.length, 0)} turns`);
    for (const user of everyone) await store.load(user);
    await database.unbound.rows(sql`vacuum analyze`);
    for (const user of everyone) {
      const ctx = await store.contextOf(user.name);
      const asked = [
        ...user.queries.map((query) => ({ ...query, answerable: true })),
        ...user.unanswerable.map((query) => ({ ...query, category: "none", answerable: false })),
      ];
      for (const mode of ["lexical", "hybrid", "vector"] as const) {
        for (const [index, query] of asked.entries()) {
          const results = await searchMemories(ctx, { query: query.text, limit: 20, mode });
          lines.push(
            JSON.stringify({
              style,
              half: user.half,
              mode,
              user: user.name,
              question: index,
              text: query.text,
              category: query.category,
              answerable: query.answerable,
              relevant: query.relevant.length,
              hits: results.map((result, rank) => ({
                rank,
                evidence: query.relevant.includes(result.memory.key ?? ""),
                confidence: result.confidence,
                ...result.signals,
              })),
            }),
          );
        }
      }
      log(`${style} ${user.name} (${user.half}) asked`);
    }
  }
  writeFileSync(out, `${lines.join("\n")}\n`);
  await store.close();
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
