import { sql } from "drizzle-orm";
import { openPglite } from "@/lib/db/client";
import { type BenchQuery, generateUser } from "./data/generator";
import { bucketsOf, scales, totalMemories } from "./data/scales";
import { createScratchDatabase, openLedgerPostgres, type ScratchPostgres } from "./databases";
import { describeMachine } from "./machine";
import { parseOptions, type Suite } from "./options";
import { inMemoryStore, inMemoryVectorStore, postgresStore } from "./peers/langgraph";
import { type LedgerStore, ledgerStore } from "./peers/ledger";
import type { BenchStore } from "./peers/store";
import { type BenchResults, renderReport, writeResults } from "./report";
import { measureChat } from "./suites/chat";
import { measureExtraction } from "./suites/extraction";
import { measureIngest } from "./suites/ingest";
import { measureList } from "./suites/list";
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
  let peers: BenchStore[] = [inMemoryStore(), inMemoryVectorStore()];
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
  const comparing = options.suites.has("search") || options.suites.has("ingest");
  const stores: BenchStore[] = comparing ? [...ledgers, ...peers] : ledgers;

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
    }));
    log(`loading ${results.totalMemories} memories into ${stores.map((store) => store.name).join(", ")}`);
    const loadSeconds = new Map<string, number>();
    for (const bucket of buckets) {
      for (const spec of bucket.users) {
        const user = generateUser(options.seed, spec, scale.questionsPerUser);
        if (bucket.queryUsers.has(spec.name)) bucket.queries.push(...user.queries);
        for (const store of stores) {
          const start = performance.now();
          await store.load(user);
          loadSeconds.set(store.name, (loadSeconds.get(store.name) ?? 0) + (performance.now() - start) / 1_000);
        }
      }
    }
    results.load = stores.map((store) => ({
      store: store.name,
      memories: results.totalMemories,
      seconds: loadSeconds.get(store.name) ?? 0,
    }));
    // Autovacuum would get here on its own a little after a bulk load: planner statistics, GIN pending lists merged.
    log("vacuum analyze");
    for (const ledger of ledgers) await ledger.database.rows(sql`vacuum analyze`);
    const largest = buckets.at(-1)!;
    const heaviestUser = largest.users[0]!.name;
    const heaviestQuestion = largest.queries[0]?.text ?? "what editor do I use?";

    await run("search", async () => {
      for (const bucket of buckets) {
        for (const store of stores) {
          log(`search ${store.name} @ ${bucket.memoriesPerUser}/user (${bucket.queries.length} queries)`);
          results.search.push(
            await measureSearch(store, bucket.queries, bucket.memoriesPerUser, options.searchBudgetMs),
          );
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
    await run("ingest", async () => {
      for (const store of stores) results.ingest.push(await measureIngest(store, options.seed, options.ingest));
    });
  } finally {
    for (const store of [...ledgers, ...peers]) await store.close();
    await scratch?.drop();
  }
  results.finishedAt = new Date().toISOString();
  const file = writeResults(results);
  process.stdout.write(`${renderReport(results)}\n\nResults: ${file}\n`);
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
