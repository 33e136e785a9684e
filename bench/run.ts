import { sql } from "drizzle-orm";
import { openPglite } from "@/lib/db/client";
import { warmSearch } from "@/lib/memory/search";
import { generateConversations, type SpeakerStyle } from "./data/conversations";
import { type BenchQuery, generateUser } from "./data/generator";
import { bucketsOf, scales, totalMemories } from "./data/scales";
import { createScratchDatabase, openLedgerPostgres, type ScratchPostgres } from "./databases";
import { hashedEmbeddingModel, meteredModel, resolveEmbeddingModel } from "./embedding";
import { describeMachine } from "./machine";
import { parseOptions, type Suite } from "./options";
import { bm25Store } from "./peers/bm25";
import { inMemoryStore, inMemoryVectorStore, postgresStore } from "./peers/langgraph";
import { type LedgerStore, ledgerStore, SEARCH_MODES } from "./peers/ledger";
import type { BenchStore } from "./peers/store";
import { writePage } from "./performance-page";
import { type BenchResults, renderReport, writeResults } from "./report";
import { measureChat } from "./suites/chat";
import { measureExtraction } from "./suites/extraction";
import { ensureBuild, HTTP_CONFIGURATIONS, measureHttp } from "./suites/http";
import { measureHygiene } from "./suites/hygiene";
import { measureIngest } from "./suites/ingest";
import { measureList } from "./suites/list";
import { embeddingCosts, evidenceSharingAWord, measureRecall } from "./suites/recall";
import { measureSearch } from "./suites/search";
import { measureVectorFloor } from "./suites/vector-floor";

const log = (message: string) => process.stderr.write(`[bench] ${message}\n`);

async function main() {
  const options = parseOptions(process.argv.slice(2));
  const scale = scales[options.scale];
  const pglite = ledgerStore("Memory Ledger (PGlite)", await openPglite());
  const databases = ["PGlite 0.5 (embedded PostgreSQL 17, pgvector)"];
  const notes: string[] = [];
  let scratch: ScratchPostgres | undefined;
  let ledgerPostgres: LedgerStore | undefined;
  // Every store that embeds gets its own metered wrapper, so its embedding cost is its own. LangGraph's vector store in
  // the search suite loads the whole scale, so it gets the bench's stand-in vectors; the recall suite's vector stores
  // load only the asked users and get the real encoder (the app's default unless --embedding names another).
  const embeddingModel = resolveEmbeddingModel(options.embedding);
  let peers: BenchStore[] = [
    inMemoryStore(),
    await inMemoryVectorStore(meteredModel(hashedEmbeddingModel())),
    bm25Store(),
  ];
  const recalling = options.suites.has("recall");
  const vectorLedger = recalling
    ? ledgerStore("Memory Ledger (PGlite+vec)", await openPglite(), { embedding: meteredModel(embeddingModel) })
    : undefined;
  const bm25Vectors = recalling ? bm25Store({ embedding: meteredModel(embeddingModel) }) : undefined;
  try {
    scratch = await createScratchDatabase(options.postgresUrl);
    databases.push(`${scratch.version} on localhost (no pgvector)`);
    ledgerPostgres = ledgerStore("Memory Ledger (PostgreSQL)", await openLedgerPostgres(scratch.url));
    peers = [await postgresStore(scratch.url), ...peers];
  } catch (error) {
    notes.push(
      `PostgreSQL at ${new URL(options.postgresUrl).host} unavailable (${String(error)}): its rows are absent.`,
    );
  }
  const ledgers = [pglite, ...(ledgerPostgres ? [ledgerPostgres] : [])];
  const comparing = options.suites.has("search") || options.suites.has("ingest") || options.suites.has("recall");
  const stores: BenchStore[] = comparing ? [...ledgers, ...peers] : ledgers;
  // The HTTP suite brings its own data (and its own server and databases), the hygiene suite its own conversations.
  const needsData = [...options.suites].some((suite) => suite !== "http" && suite !== "hygiene");

  const results: BenchResults = {
    startedAt: new Date().toISOString(),
    command: `npm run bench -- ${process.argv.slice(2).join(" ")}`.trim(),
    scale: scale.name,
    totalMemories: totalMemories(scale),
    seed: options.seed,
    machine: describeMachine(databases),
    load: [],
    search: [],
    ingest: [],
    list: [],
    explain: {},
    notes,
  };
  const run = async (suite: Suite, work: () => Promise<void>) => {
    if (!options.suites.has(suite)) return;
    log(`${suite}…`);
    try {
      await work();
    } catch (error) {
      process.exitCode = 1;
      notes.push(`${suite} failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`);
    }
  };

  try {
    const buckets = bucketsOf(scale).map((bucket) => ({
      ...bucket,
      queryUsers: new Set(bucket.users.slice(0, scale.queryUsersPerBucket).map((user) => user.name)),
      queries: [] as BenchQuery[],
      warmups: [] as BenchQuery[],
    }));
    if (needsData) {
      log(`loading ${results.totalMemories} memories into ${stores.map((store) => store.name).join(", ")}`);
    }
    const loadSeconds = new Map<string, number>();
    for (const bucket of needsData ? buckets : []) {
      for (const spec of bucket.users) {
        const user = generateUser(options.seed, spec, scale.questionsPerUser);
        (bucket.queryUsers.has(spec.name) ? bucket.queries : bucket.warmups).push(...user.queries);
        for (const store of stores) {
          const start = performance.now();
          await store.load(user);
          loadSeconds.set(store.name, (loadSeconds.get(store.name) ?? 0) + (performance.now() - start) / 1_000);
        }
      }
    }
    results.load = needsData
      ? stores.map((store) => ({
          store: store.name,
          memories: results.totalMemories,
          seconds: loadSeconds.get(store.name) ?? 0,
        }))
      : [];
    const allLedgers = [...ledgers, ...(vectorLedger ? [vectorLedger] : [])];
    // Autovacuum would get here on its own a little after a bulk load: planner statistics, GIN pending lists merged.
    const vacuum = async () => {
      log("vacuum analyze");
      for (const ledger of allLedgers) await ledger.database.unbound.rows(sql`vacuum analyze`);
    };
    if (needsData) {
      await vacuum();
      // What the server does when it starts (lib/server/start.ts), before any of these searches could reach it.
      for (const ledger of allLedgers) await warmSearch(ledger.database);
    }
    const largest = buckets.at(-1)!;
    const heaviestUser = largest.users[0]!.name;
    const heaviestQuestion = largest.queries[0]?.text ?? "what editor do I use?";

    await run("search", async () => {
      for (const bucket of buckets) {
        for (const store of stores) {
          log(`search ${store.name} @ ${bucket.memoriesPerUser}/user (${bucket.queries.length} queries)`);
          results.search.push(await measureSearch(store, bucket, options.searchBudgetMs));
        }
        const floor = await measureVectorFloor(pglite, bucket.queries, bucket.memoriesPerUser);
        results.search.push(floor.figure);
        results.explain[`vector floor @ ${bucket.memoriesPerUser}/user`] = floor.explain;
      }
      for (const ledger of ledgers) {
        results.explain[`${ledger.name} search @ ${largest.memoriesPerUser}/user: "${heaviestQuestion}"`] =
          await ledger.explain!(heaviestUser, heaviestQuestion);
      }
    });
    await run("list", async () => {
      for (const ledger of ledgers) {
        results.list.push(
          await measureList(await ledger.contextOf(heaviestUser), largest.memoriesPerUser, options.listRepeats),
        );
      }
    });
    await run("chat", async () => {
      results.chat = [];
      for (const ledger of ledgers) {
        results.chat.push(
          await measureChat(
            {
              ctx: await ledger.contextOf(heaviestUser),
              memories: largest.memoriesPerUser,
              questions: largest.queries.map((query) => query.text),
            },
            await ledger.contextOf("chat-empty"),
            options.chatTurns,
          ),
        );
      }
    });
    await run("extraction", async () => {
      results.extraction = await measureExtraction(
        await pglite.contextOf(heaviestUser),
        largest.memoriesPerUser,
        options.extractionRuns,
      );
    });
    await run("hygiene", async () => {
      // The default configuration: PGlite with the bundled encoder's vectors, which the finder's "close" pairs use.
      const store = ledgerStore("Memory Ledger (PGlite, hygiene)", await openPglite(), {
        embedding: meteredModel(embeddingModel),
      });
      try {
        results.hygiene = await measureHygiene(store.contextOf, options.hygienePeople, options.hygieneHalves);
      } finally {
        await store.close();
      }
    });
    await run("ingest", async () => {
      for (const store of stores.filter((candidate) => candidate.ingest !== false)) {
        results.ingest.push(await measureIngest(store, options.seed, options.ingest));
      }
    });
    await run("recall", async () => {
      if (!vectorLedger) return;
      results.recall = [];
      results.recallDatasets = [];
      // The store that has vectors is asked in each mode; the others have one ranking to offer.
      const contenders = (loaded: readonly BenchStore[]) =>
        loaded.flatMap((store) =>
          store === vectorLedger ? SEARCH_MODES.map((mode) => vectorLedger.withMode(mode)) : [store],
        );
      const vectorStores: BenchStore[] = [vectorLedger, ...(bm25Vectors ? [bm25Vectors] : [])];
      const recallStores = [...stores, ...vectorStores];

      // One asked user per bucket: the real encoder embeds everything the vector stores hold, at ~10 ms a memory.
      const asked = buckets.flatMap((bucket) =>
        bucket.users.filter((spec) => bucket.queryUsers.has(spec.name)).slice(0, 1),
      );
      const askedNames = new Set(asked.map((spec) => spec.name));
      log(`recall: loading the ${asked.length} asked users into the stores with vectors`);
      for (const spec of asked) {
        const user = generateUser(options.seed, spec, scale.questionsPerUser);
        for (const store of vectorStores) await store.load(user);
      }
      const generated = buckets.flatMap((bucket) => bucket.queries).filter((query) => askedNames.has(query.user));
      const generatedName = `generated (${scale.name})`;
      results.recallDatasets.push({
        name: generatedName,
        users: asked.length,
        memories: asked.reduce((sum, spec) => sum + spec.memories, 0),
        questions: generated.length,
      });
      for (const store of contenders(recallStores)) {
        log(`recall ${store.name} on ${generatedName} (${generated.length} questions)`);
        results.recall.push(await measureRecall(generatedName, store, generated, options.weights));
      }

      for (const style of ["named", "bare"] as SpeakerStyle[]) {
        const everyone = generateConversations(options.seed, scale.conversations, style);
        const memories = everyone.reduce((sum, user) => sum + user.memories.length, 0);
        const styleName = style === "named" ? 'conversations ("Name: text")' : "conversations (bare text)";
        log(`recall: loading ${styleName}, ${memories} turns of ${everyone.length} users`);
        for (const store of recallStores) for (const user of everyone) await store.load(user);
        await vacuum();
        // Weights and thresholds are chosen on the tune half (its weight curve is printed); the report half is of
        // data nothing was chosen on.
        for (const half of ["tune", "report"] as const) {
          const users = everyone.filter((user) => user.half === half);
          if (users.length === 0) continue;
          const name = `${styleName}, ${half} half`;
          const questions = users.flatMap((user) => user.queries);
          const unanswerable = users.flatMap((user) => user.unanswerable);
          results.recallDatasets.push({
            name,
            users: users.length,
            memories: users.reduce((sum, user) => sum + user.memories.length, 0),
            questions: questions.length,
            unanswerable: unanswerable.length,
            evidenceSharingAWord: evidenceSharingAWord(users),
          });
          for (const store of contenders(recallStores)) {
            log(`recall ${store.name} on ${name} (${questions.length} questions, ${unanswerable.length} unanswerable)`);
            const weights = half === "tune" ? options.weights : [];
            results.recall.push(await measureRecall(name, store, questions, weights, unanswerable));
          }
        }
      }
      results.embeddingCost = embeddingCosts(recallStores);
    });
    await run("http", async () => {
      results.http = [];
      const http = { ...options.http, seed: options.seed, postgresUrl: options.postgresUrl, log };
      ensureBuild(log);
      const kinds = scratch ? (["pglite", "postgres"] as const) : (["pglite"] as const);
      const pairings = kinds.flatMap((kind) => HTTP_CONFIGURATIONS.map((configuration) => ({ kind, configuration })));
      // A smoke run proves the harness on each database and each configuration once (PGlite with vectors, PostgreSQL
      // without), not on every pairing: each server it starts costs CI seconds (docs/testing.md, "Time").
      const measured =
        options.scale === "smoke"
          ? pairings.filter(({ kind, configuration }) => (kind === "pglite") === configuration.vectors)
          : pairings;
      for (const { kind, configuration } of measured) results.http.push(await measureHttp(kind, configuration, http));
    });
  } finally {
    const vectorStores = [...(vectorLedger ? [vectorLedger] : []), ...(bm25Vectors ? [bm25Vectors] : [])];
    for (const store of [...ledgers, ...peers, ...vectorStores]) await store.close();
    await scratch?.drop();
  }
  results.finishedAt = new Date().toISOString();
  const file = writeResults(results);
  process.stdout.write(`${renderReport(results)}\n\nResults: ${file}\n`);
  // A finished run of every suite is what the performance page shows (bench/performance-page.ts picks it).
  if (results.scale !== "smoke" && !results.command.includes("--only")) writePage();
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
