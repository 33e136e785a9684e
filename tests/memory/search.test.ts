import { MockEmbeddingModelV4 } from "ai/test";
import { sql } from "drizzle-orm";
import { beforeAll, expect, it } from "vitest";
import { ValidationError } from "@/lib/errors";
import type { MemoryContext } from "@/lib/memory/core";
import { embedMissing, searchMemories } from "@/lib/memory/search";
import { createMemories, createMemory, deleteMemory, purgeMemory, updateMemory } from "@/lib/memory/store";
import { describeEachDatabase } from "../support/databases";
import { contextFor, createUser, topicEmbeddingModel, withEmbedding } from "./support";

const texts = (results: { memory: { text: string } }[]) => results.map((result) => result.memory.text);

describeEachDatabase("memory search", (use, backend) => {
  let ctx: MemoryContext;
  beforeAll(async () => {
    ctx = contextFor(use(), await createUser(use()));
    const seed = [
      "I use Neovim as my editor",
      "She runs every morning before work",
      "I prefer dark mode in every app",
      "Our main database is Postgres",
      "My daughter is called Maya and she likes drawing",
      "Coffee: a flat white with oat milk",
    ];
    for (const content of seed) await createMemory(ctx, { content });
  });

  it("finds an exact word", async () => {
    expect(texts(await searchMemories(ctx, { query: "Neovim" }))[0]).toBe("I use Neovim as my editor");
  });

  it("finds a stemmed form", async () => {
    expect(texts(await searchMemories(ctx, { query: "running" }))).toContain("She runs every morning before work");
  });

  it("finds through typos with trigram word similarity", async () => {
    expect(texts(await searchMemories(ctx, { query: "dakr" }))[0]).toBe("I prefer dark mode in every app");
    expect(texts(await searchMemories(ctx, { query: "dakr mode" }))[0]).toBe("I prefer dark mode in every app");
    expect(texts(await searchMemories(ctx, { query: "Postgers" }))[0]).toBe("Our main database is Postgres");
  });

  it("answers a question-style query (terms OR-ed, not AND-ed)", async () => {
    const results = await searchMemories(ctx, { query: "what do you remember about my editor?" });
    expect(texts(results)[0]).toBe("I use Neovim as my editor");
    const daughter = await searchMemories(ctx, { query: "What is my daughter's name?" });
    expect(texts(daughter)[0]).toBe("My daughter is called Maya and she likes drawing");
  });

  it("ranks a memory matching more terms above one matching fewer, with descending scores", async () => {
    const local = contextFor(use(), await createUser(use()));
    await createMemory(local, { content: "the garden has tomatoes" });
    await createMemory(local, { content: "the garden has tomatoes and basil growing in pots" });
    const results = await searchMemories(local, { query: "basil tomatoes in the garden" });
    expect(texts(results)[0]).toBe("the garden has tomatoes and basil growing in pots");
    const scores = results.map((result) => result.score);
    expect(scores).toEqual([...scores].sort((a, b) => b - a));
    expect(scores[0]).toBeGreaterThan(0);
  });

  it("keeps each user's vocabulary for typo correction, and a purge takes the erased words out of it", async () => {
    const local = contextFor(use(), await createUser(use()));
    const other = contextFor(use(), await createUser(use()));
    const aunt = await createMemory(local, { content: "Ottoline is my aunt from Reykjavik" });
    const tea = await createMemory(local, { content: "Ottoline likes rooibos" });
    await createMemory(other, { content: "Zanzibar trip in June" });
    const vocabulary = async (userId: string) =>
      (
        await use().unbound.rows<{ term: string }>(
          sql`select term from memory_terms where user_id = ${userId}::uuid order by term`,
        )
      ).map((row) => row.term);
    expect(await vocabulary(local.principal.userId)).toEqual([
      "aunt",
      "from",
      "likes",
      "ottoline",
      "reykjavik",
      "rooibos",
    ]);
    expect(texts(await searchMemories(local, { query: "Reykjavk" }))).toEqual(["Ottoline is my aunt from Reykjavik"]);
    expect(await searchMemories(local, { query: "Zanzibr" })).toEqual([]);

    await purgeMemory(local, aunt.id);
    expect(await vocabulary(local.principal.userId)).toEqual(["likes", "ottoline", "rooibos"]);
    expect(await vocabulary(other.principal.userId)).toEqual(["june", "trip", "zanzibar"]);

    // An edit swaps the words only the old text had for the new ones.
    await updateMemory(local, tea.id, { content: "Ottoline likes hibiscus" });
    expect(await vocabulary(local.principal.userId)).toEqual(["hibiscus", "likes", "ottoline"]);
    expect(texts(await searchMemories(local, { query: "hibiscsu" }))).toEqual(["Ottoline likes hibiscus"]);
  });

  it("returns nothing for a query of stop words only", async () => {
    expect(await searchMemories(ctx, { query: "what is it" })).toEqual([]);
  });

  it("filters by kind, metadata operators, status and time range", async () => {
    const local = contextFor(use(), await createUser(use()));
    await createMemory(local, { content: "tea in the morning", metadata: { strength: 2, origin: "china" } });
    await createMemory(local, { content: "tea after lunch", metadata: { strength: 5, origin: "india" } });
    await createMemory(local, { kind: "procedure", content: { rule: "offer tea to guests" } });
    // A non-number at a compared path is simply not a match (the numeric cast must never see it).
    await createMemory(local, { content: "tea of unknown strength", metadata: { strength: "high" } });
    const gone = await createMemory(local, { content: "tea with sugar" });
    await deleteMemory(local, gone.id);

    expect(texts(await searchMemories(local, { query: "tea", kind: "procedure" }))).toEqual(["offer tea to guests"]);
    expect(texts(await searchMemories(local, { query: "tea", metadata: { strength: { $gt: 3 } } }))).toEqual([
      "tea after lunch",
    ]);
    expect(
      texts(await searchMemories(local, { query: "tea", metadata: { origin: { $nin: ["india"] } } })).sort(),
    ).toEqual(["offer tea to guests", "tea in the morning", "tea of unknown strength"]);
    expect(texts(await searchMemories(local, { query: "tea", metadata: { origin: "india" } }))).toEqual([
      "tea after lunch",
    ]);
    expect(texts(await searchMemories(local, { query: "tea", status: "deleted" }))).toEqual(["tea with sugar"]);
    expect(await searchMemories(local, { query: "tea", timeRange: { after: new Date("2030-01-01") } })).toEqual([]);
    expect(
      texts(await searchMemories(local, { query: "tea", content: { rule: { $eq: "offer tea to guests" } } })),
    ).toEqual(["offer tea to guests"]);
  });

  it("validates filter operators and field names", async () => {
    await expect(searchMemories(ctx, { query: "x", metadata: { a: { $regex: "." } as never } })).rejects.toBeInstanceOf(
      ValidationError,
    );
    await expect(
      searchMemories(ctx, { query: "x", metadata: { "a'; drop table memories; --": 1 } }),
    ).rejects.toBeInstanceOf(ValidationError);
    await expect(searchMemories(ctx, { query: "" })).rejects.toBeInstanceOf(ValidationError);
  });

  if (backend === "pglite") {
    it("uses vectors when an embedding model is given: a synonym with no shared word is found", async () => {
      const model = topicEmbeddingModel();
      const local = withEmbedding(contextFor(use(), await createUser(use())), model);
      const cat = await createMemory(local, { content: "Tom is our feline friend" });
      await createMemory(local, { content: "The vehicle is blue" });
      const [count] = await use().unbound.rows<{ n: number }>(
        sql`select count(*)::int as n from memory_embeddings where user_id = ${local.principal.userId}::uuid`,
      );
      expect(count?.n).toBe(2);

      const results = await searchMemories(local, { query: "kitten" });
      expect(texts(results)[0]).toBe("Tom is our feline friend");
      const lexicalOnly = await searchMemories({ ...local, embeddingModel: undefined }, { query: "kitten" });
      expect(lexicalOnly).toEqual([]);

      await updateMemory(local, cat.id, { content: "Tom likes espresso" });
      expect(texts(await searchMemories(local, { query: "coffee" }))[0]).toBe("Tom likes espresso");

      await purgeMemory(local, cat.id);
      const [left] = await use().unbound.rows<{ n: number }>(
        sql`select count(*)::int as n from memory_embeddings where memory_id = ${cat.id}::uuid`,
      );
      expect(left?.n).toBe(0);
    });

    it("keeps a lexical hit first when the vector leg prefers another memory by only a little", async () => {
      // Unit vectors at fixed angles to the query: the answer that says the question's words is a little less close
      // by meaning (0.5) than one that says none of them (0.6), and the rest are far (0.1).
      const at = (cosine: number, side: number) => [cosine, side * Math.sqrt(1 - cosine ** 2), 0];
      const vectors = new Map<string, number[]>([
        ["Which board game does Priya usually bring along on Fridays for the neighbours?", at(1, 1)],
        ["Priya brings Azul to every board game night", at(0.5, 1)],
        ["We stayed up until midnight and laughed a lot", at(0.6, -1)],
      ]);
      const model = new MockEmbeddingModelV4({
        provider: "toy",
        modelId: "angles",
        maxEmbeddingsPerCall: 64,
        doEmbed: async ({ values }) => ({
          embeddings: values.map((value) => vectors.get(value) ?? [0.1, 0, Math.sqrt(1 - 0.01)]),
          warnings: [],
        }),
      });
      const local = withEmbedding(contextFor(use(), await createUser(use())), model);
      await createMemories(local, [
        { content: "Priya brings Azul to every board game night" },
        { content: "We stayed up until midnight and laughed a lot" },
        ...Array.from({ length: 8 }, (_, index) => ({ content: `Priya mentioned the weather, part ${index}` })),
      ]);
      const results = await searchMemories(local, {
        query: "Which board game does Priya usually bring along on Fridays for the neighbours?",
      });
      expect(texts(results).slice(0, 2)).toEqual([
        "Priya brings Azul to every board game night",
        "We stayed up until midnight and laughed a lot",
      ]);
      expect(results[0]?.lexical).toBeGreaterThan(0);
      expect(results[1]).toMatchObject({ lexical: 0, vector: expect.closeTo(0.6, 5) });
    });

    it("leaves out a vector of another length stored under the same model name", async () => {
      // A model whose dimensions changed under one name: vectors written before the change stay until re-embedded.
      let dimensions = 3;
      const model = new MockEmbeddingModelV4({
        provider: "toy",
        modelId: "resized",
        maxEmbeddingsPerCall: 16,
        doEmbed: async ({ values }) => ({
          embeddings: values.map(() => Array.from({ length: dimensions }, (_, index) => (index === 0 ? 1 : 0.1))),
          warnings: [],
        }),
      });
      const local = withEmbedding(contextFor(use(), await createUser(use())), model);
      await createMemory(local, { content: "Written while the model gave three numbers" });
      dimensions = 4;
      await createMemory(local, { content: "Written after it gave four" });
      const stored = await use().unbound.rows<{ dimensions: number }>(
        sql`select vector_dims(embedding) as dimensions from memory_embeddings
            where user_id = ${local.principal.userId}::uuid order by 1`,
      );
      expect(stored.map((row) => Number(row.dimensions))).toEqual([3, 4]);

      const results = await searchMemories(local, { query: "anything at all", mode: "vector" });
      expect(texts(results)).toEqual(["Written after it gave four"]);
      // The count the standing is read over holds the vectors compared only.
      expect(results[0]?.signals?.memories).toBe(1);
    });

    it("batches embeddings and backfills memories written without a model", async () => {
      const bulkModel = topicEmbeddingModel();
      const bulk = withEmbedding(contextFor(use(), await createUser(use())), bulkModel);
      await createMemories(bulk, [{ content: "a kitten" }, { content: "a vehicle" }, { content: "espresso" }]);
      expect(bulkModel.doEmbedCalls).toHaveLength(1);
      expect(bulkModel.doEmbedCalls[0]?.values).toHaveLength(3);

      const model = topicEmbeddingModel();
      const local = contextFor(use(), await createUser(use()));
      for (const content of ["a cat", "a car", "an espresso"]) await createMemory(local, { content });
      expect(await embedMissing({ ...local, embeddingModel: model })).toBe(3);
      expect(model.doEmbedCalls).toHaveLength(1);
      expect(await embedMissing({ ...local, embeddingModel: model })).toBe(0);
      expect(texts(await searchMemories({ ...local, embeddingModel: model }, { query: "kitten" }))[0]).toBe("a cat");
    });
  } else {
    it("falls back to lexical search when the database has no pgvector, without calling the model", async () => {
      expect(use().vector).toBe(false);
      const model = topicEmbeddingModel();
      const local = contextFor(use(), await createUser(use()), { embeddingModel: model });
      await createMemory(local, { content: "Tom is our feline friend" });
      expect(texts(await searchMemories(local, { query: "feline" }))).toEqual(["Tom is our feline friend"]);
      expect(model.doEmbedCalls).toHaveLength(0);
    });
  }
});
