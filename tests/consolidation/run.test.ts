import { MockEmbeddingModelV4 } from "ai/test";
import { expect, it } from "vitest";
import { OfflineLanguageModel } from "@/lib/ai/offline/model";
import { exportNamespace } from "@/lib/console/export";
import { importNamespace } from "@/lib/console/import";
import {
  getConsolidationRun,
  memoryHealth,
  queueConsolidationRun,
  revertConsolidationRun,
  runConsolidation,
} from "@/lib/memory/consolidation";
import type { MemoryContext } from "@/lib/memory/core";
import { approveProposal, listProposals, rejectProposal, updateSettings } from "@/lib/memory/review";
import { searchMemories as search } from "@/lib/memory/search";
import {
  createMemory,
  createRule,
  deleteMemory,
  getMemory,
  listMemories,
  type Memory,
  memoryHistory,
  updateMemory,
} from "@/lib/memory/store";
import { rawManager } from "../extraction/support";
import { contextFor, createUser, steppingClock, topicEmbeddingModel, withEmbedding } from "../memory/support";
import { describeEachDatabase } from "../support/databases";

let jobs = 0;
const job = () => ({ jobId: `consolidation-job-${++jobs}`, finalAttempt: true, trigger: "manual" as const });
const offline = (ctx: MemoryContext) => ({ ctx, model: new OfflineLanguageModel(), modelId: "offline" });

/** What revert must put back: everything a consolidation op can change. */
const stateOf = (memory: Memory) => ({
  status: memory.status,
  text: memory.text,
  validTo: memory.validTo?.toISOString() ?? null,
  mergedInto: memory.mergedInto,
  mergedFrom: memory.mergedFrom,
  source: memory.source,
});

describeEachDatabase("consolidation runs", (use, backend) => {
  async function setup() {
    const database = use();
    const userId = await createUser(database);
    const clock = steppingClock(Date.parse("2026-01-10T00:00:00.000Z"));
    const ctx = contextFor(database, userId, { clock });
    // Memories the background manager wrote: a consolidation run may change them without asking.
    const extractor = { ...ctx, actor: { type: "extractor" as const, id: "offline" } };
    return { database, userId, ctx, extractor };
  }

  /** A paraphrase, a changed value and a plan whose date has passed, beside a fact that must stay. */
  async function planted(extractor: MemoryContext) {
    return {
      hiking: await createMemory(extractor, { content: "User loves hiking in the mountains" }),
      lisbon: await createMemory(extractor, { content: "User lives in Lisbon" }),
      paraphrase: await createMemory(extractor, { content: "The user loves hiking in the mountains." }),
      porto: await createMemory(extractor, { content: "User lives in Porto" }),
      // Said on New Year's Day, before its date; stored since.
      trip: await createMemory(extractor, {
        content: "User plans a trip to Rome on 2026-01-05",
        validFrom: "2026-01-01",
      }),
      tea: await createMemory(extractor, { content: "User likes green tea" }),
    };
  }

  it("merges a duplicate, supersedes a changed value and expires a past plan, keeping everything", async () => {
    const { ctx, extractor } = await setup();
    const m = await planted(extractor);

    const outcome = await runConsolidation(offline(ctx), job());
    expect(outcome).toMatchObject({ status: "succeeded", applied: 3, rejected: 0 });

    const paraphrase = await getMemory(ctx, m.paraphrase.id);
    expect(paraphrase).toMatchObject({ status: "merged", mergedInto: m.hiking.id, text: m.paraphrase.text });
    expect(await getMemory(ctx, m.hiking.id)).toMatchObject({
      status: "active",
      mergedFrom: [m.paraphrase.id],
      support: 2,
    });
    const lisbon = await getMemory(ctx, m.lisbon.id);
    expect(lisbon.status).toBe("active");
    expect(lisbon.validTo?.toISOString()).toBe(m.porto.createdAt.toISOString());
    expect((await getMemory(ctx, m.porto.id)).validTo).toBeNull();
    expect((await getMemory(ctx, m.trip.id)).validTo?.toISOString()).toBe("2026-01-06T00:00:00.000Z");
    expect(stateOf(await getMemory(ctx, m.tea.id))).toEqual(stateOf(m.tea));

    // Search leaves out what was merged and what no longer holds; asOf still finds the old value.
    const texts = async (query: string, asOf?: string) =>
      (await search(ctx, { query, ...(asOf ? { asOf } : {}) })).map((r) => r.memory.id);
    expect(await texts("hiking mountains")).toEqual([m.hiking.id]);
    expect(await texts("lives")).toEqual([m.porto.id]);
    expect(await texts("trip Rome")).toEqual([]);
    expect(await texts("lives Lisbon", m.lisbon.createdAt.toISOString())).toContain(m.lisbon.id);
  });

  it("shows the planted counts in memory health before a run and none after", async () => {
    const { ctx, extractor } = await setup();
    await planted(extractor);
    expect(await memoryHealth(ctx)).toMatchObject({ memories: 6, duplicates: 1, conflicts: 1, expired: 1 });

    await runConsolidation(offline(ctx), job());
    const after = await memoryHealth(ctx);
    expect(after).toMatchObject({ memories: 5, duplicates: 0, conflicts: 0, expired: 0, pendingProposals: 0 });
    expect(after.lastConsolidation).toMatchObject({ status: "succeeded", modelCalls: 3 });
  });

  it("only proposes a change to a memory a person edited last", async () => {
    const { ctx, extractor } = await setup();
    const blue = await createMemory(ctx, { content: "User's favourite colour is blue" });
    const green = await createMemory(extractor, { content: "User's favourite colour is green" });

    const outcome = await runConsolidation(offline(ctx), job());
    expect(outcome).toMatchObject({ status: "succeeded", applied: 0, rejected: 1 });
    expect(stateOf(await getMemory(ctx, blue.id))).toEqual(stateOf(blue));
    const { proposals } = await listProposals(ctx, { status: "pending" });
    expect(proposals).toMatchObject([{ op: "update", memoryId: blue.id, validTo: green.createdAt }]);
    // A second run meets the same pair: the change already waits for the person, so nothing is proposed twice.
    await runConsolidation(offline(ctx), job());
    expect((await listProposals(ctx, { status: "pending" })).proposals).toHaveLength(1);

    await approveProposal(ctx, proposals[0]!.id);
    const closed = await getMemory(ctx, blue.id);
    expect(closed).toMatchObject({ text: blue.text, validTo: green.createdAt });
    expect(await memoryHealth(ctx)).toMatchObject({ conflicts: 0, pendingProposals: 0 });
  });

  it("neither counts nor proposes again a change the user rejected, until the memory kept changes", async () => {
    const { ctx, extractor } = await setup();
    await updateSettings(ctx, { review: "all" });
    const m = await planted(extractor);
    // Near-identical words, two values of one slot: a conflict, not a duplicate.
    const blue = await createMemory(extractor, { content: "User's favourite colour is blue" });
    const green = await createMemory(extractor, { content: "User's favourite colour is green" });
    expect(await memoryHealth(ctx)).toMatchObject({ duplicates: 1, conflicts: 2, expired: 1 });
    const pending = async () =>
      (await listProposals(ctx, { status: "pending" })).proposals.map((p) => [p.op, p.memoryId, p.content, p.validTo]);

    await runConsolidation(offline(ctx), job());
    const { proposals } = await listProposals(ctx, { status: "pending" });
    expect(proposals.map((p) => [p.op, p.memoryId]).sort()).toEqual(
      [
        ["merge", m.hiking.id],
        ["update", m.lisbon.id],
        ["update", m.trip.id],
        ["update", blue.id],
      ].sort(),
    );
    for (const proposal of proposals) await rejectProposal(ctx, proposal.id);
    expect(await memoryHealth(ctx)).toMatchObject({ duplicates: 0, conflicts: 0, expired: 0, pendingProposals: 0 });
    // A pin, or a change to the other memory that leaves the kept one's words alone, brings nothing back.
    await updateMemory(ctx, m.lisbon.id, { pinned: true });
    await updateMemory(extractor, green.id, { content: "User's favourite colour is light green" });
    expect(await runConsolidation(offline(ctx), job())).toMatchObject({ status: "succeeded", groups: 0 });
    expect(await pending()).toEqual([]);

    // A model merging the kept pair with a new restatement: the merge goes on without the member kept apart.
    const third = await createMemory(extractor, { content: "User loves hiking in the mountains!" });
    const merge = { op: "merge", ids: [m.hiking.id, m.paraphrase.id, third.id], into: m.hiking.id };
    const mock = { ctx, model: rawManager(JSON.stringify({ ops: [merge] })), modelId: "mock" };
    expect(await runConsolidation(mock, job())).toMatchObject({ status: "succeeded", groups: 1 });
    expect(await pending()).toEqual([
      ["merge", m.hiking.id, { from: [{ id: third.id, version: third.version }] }, null],
    ]);

    // A newer home closes the value the user did not keep, never the one kept; once that one's words change, it may.
    const berlin = await createMemory(extractor, { content: "User lives in Berlin" });
    await runConsolidation(offline(ctx), job());
    expect((await pending()).filter(([op]) => op === "update")).toEqual([
      ["update", m.porto.id, m.porto.content, berlin.createdAt],
    ]);
    await updateMemory(ctx, blue.id, { content: "User's favourite colour is navy blue" });
    await runConsolidation(offline(ctx), job());
    expect((await pending()).map(([op, id]) => [op, id])).toContainEqual(["update", blue.id]);

    // Nor is the memory kept standing folded into a copy, on which its close would come back: the copy goes into it.
    const copy = await createMemory(extractor, { content: "The user lives in Lisbon." });
    const folding = JSON.stringify({ ops: [{ op: "merge", ids: [m.lisbon.id, copy.id], into: copy.id }] });
    await runConsolidation({ ctx, model: rawManager(...Array(6).fill(folding)), modelId: "mock" }, job());
    expect((await pending()).filter(([, id]) => id === m.lisbon.id || id === copy.id)).toEqual([
      ["merge", m.lisbon.id, { from: [{ id: copy.id, version: copy.version }] }, null],
    ]);
  });

  it("reverts a run: every memory back to what it was, and only once", async () => {
    const { ctx, extractor } = await setup();
    const m = await planted(extractor);
    const before = Object.values(m).map(stateOf);

    const outcome = await runConsolidation(offline(ctx), job());
    if (outcome.status !== "succeeded") throw new Error(JSON.stringify(outcome));
    const reverted = await revertConsolidationRun(ctx, outcome.runId);
    expect(reverted.skipped).toEqual([]);
    expect(reverted.reverted).toHaveLength(4);

    const after = await Promise.all(Object.values(m).map((memory) => getMemory(ctx, memory.id)));
    expect(after.map(stateOf)).toEqual(before);
    await expect(revertConsolidationRun(ctx, outcome.runId)).rejects.toMatchObject({ code: "conflict" });
  });

  it("exports a merged memory and imports the memory it went into, not the merged one again", async () => {
    const { database, ctx, extractor } = await setup();
    const kept = await createMemory(extractor, { content: "User drinks oat milk" });
    await createMemory(extractor, { content: "User drinks oat milk." });
    await runConsolidation(offline(ctx), job());
    let file = "";
    for await (const chunk of exportNamespace(ctx)) file += chunk;

    const target = contextFor(database, await createUser(database));
    const imported = await importNamespace(target, { file, apply: true });
    expect(imported).toMatchObject({ ok: true, created: 1, summary: { counts: { create: 1, unchanged: 1 } } });
    const { memories } = await listMemories(target, { status: "all" });
    expect(memories.map((memory) => [memory.text, memory.status])).toEqual([[kept.text, "active"]]);
  });

  it("never runs two runs of one user at once: a run asked for meanwhile is skipped, saying why", async () => {
    const { ctx, extractor } = await setup();
    await planted(extractor);
    const first = await queueConsolidationRun(ctx, "manual");
    const second = await queueConsolidationRun(ctx, "manual");
    // The first run's model call is where it waits: the second run starts then.
    let during: unknown;
    const model = new OfflineLanguageModel();
    const waiting = {
      ...model,
      specificationVersion: model.specificationVersion,
      provider: model.provider,
      modelId: model.modelId,
      supportedUrls: model.supportedUrls,
      doStream: model.doStream.bind(model),
      doGenerate: async (options: Parameters<typeof model.doGenerate>[0]) => {
        during ??= await runConsolidation(offline(ctx), { ...job(), runId: second.id });
        return model.doGenerate(options);
      },
    };
    const outcome = await runConsolidation({ ctx, model: waiting, modelId: "offline" }, { ...job(), runId: first.id });
    expect(outcome).toMatchObject({ status: "succeeded", runId: first.id, applied: 3 });
    expect(during).toEqual({ status: "skipped", reason: `consolidation run ${first.id} is in progress` });
    expect(await getConsolidationRun(ctx, second.id)).toMatchObject({
      status: "skipped",
      error: `consolidation run ${first.id} is in progress`,
    });
  });

  it("merges a restatement that only adds words into the fuller one; a negation supersedes instead", async () => {
    const { ctx, extractor } = await setup();
    const short = await createMemory(extractor, { content: "User enjoys sailing small boats" });
    const likes = await createMemory(extractor, { content: "User likes strong coffee" });
    const fuller = await createMemory(extractor, { content: "The user enjoys sailing small boats most of all." });
    const negation = await createMemory(extractor, { content: "User no longer likes strong coffee" });

    expect(await runConsolidation(offline(ctx), job())).toMatchObject({ status: "succeeded", applied: 2 });
    expect(await getMemory(ctx, short.id)).toMatchObject({ status: "merged", mergedInto: fuller.id });
    expect(await getMemory(ctx, likes.id)).toMatchObject({ status: "active", mergedInto: null });
    expect((await getMemory(ctx, likes.id)).validTo?.toISOString()).toBe(negation.createdAt.toISOString());
  });

  it("merges two memories that each add an aside into one wording holding both; a revert puts the wording back", async () => {
    const { ctx, extractor } = await setup();
    const restorative = await createMemory(extractor, {
      content: "User loves hiking in the mountains and finds it restorative",
    });
    const said = { messageId: "m-1", quote: "I hike whenever I can" };
    const whenever = await createMemory(
      { ...extractor, provenance: { source: "extraction", ...said } },
      { content: "User loves hiking in the mountains and pursues it whenever they can" },
    );

    const outcome = await runConsolidation(offline(ctx), job());
    if (outcome.status !== "succeeded") throw new Error(JSON.stringify(outcome));
    expect(outcome).toMatchObject({ applied: 1, rejected: 0 });
    const wording = "User loves hiking in the mountains and pursues it whenever they can; finds it restorative";
    // Still the memory of the words it came from: the wording is made of the memories' own.
    expect(await getMemory(ctx, whenever.id)).toMatchObject({
      text: wording,
      mergedFrom: [restorative.id],
      source: whenever.source,
    });
    expect(await getMemory(ctx, restorative.id)).toMatchObject({ status: "merged", mergedInto: whenever.id });
    // The new wording is a version of its own, by the run, before the merge.
    const history = await memoryHistory(ctx, whenever.id);
    expect(history.map((version) => [version.text, version.reason?.split(":")[0]])).toEqual([
      [whenever.text, undefined],
      [wording, `worded to hold what ${restorative.id} add`],
      [wording, `merged ${restorative.id} into this memory`],
    ]);
    expect((await search(ctx, { query: "restorative" })).map((hit) => hit.memory.id)).toEqual([whenever.id]);

    await revertConsolidationRun(ctx, outcome.runId);
    expect(stateOf(await getMemory(ctx, whenever.id))).toEqual(stateOf(whenever));
    expect(stateOf(await getMemory(ctx, restorative.id))).toEqual(stateOf(restorative));
  });

  it("holds a model's merged wording to review and to what the user deleted, and applies the wording approved", async () => {
    const { ctx, extractor } = await setup();
    const short = await createMemory(extractor, { content: "User plays chess" });
    const online = await createMemory(extractor, { content: "User plays chess online most evenings" });
    const deleted = await createMemory(ctx, { content: "User plays chess with their neighbour Ana on Sundays" });
    await deleteMemory(ctx, deleted.id);
    const merge = (text: string) => ({
      op: "merge",
      ids: [short.id, online.id],
      into: online.id,
      text,
      reason: "same",
    });
    const restating = rawManager(JSON.stringify({ ops: [merge(deleted.text)] }));

    const refused = await runConsolidation({ ctx, model: restating, modelId: "mock" }, job());
    if (refused.status !== "succeeded") throw new Error(JSON.stringify(refused));
    const run = await getConsolidationRun(ctx, refused.runId);
    expect(run.opsRejected).toMatchObject([
      { reason: `deleted by the user: the new content restates a deleted memory (${deleted.id})` },
    ]);
    expect(stateOf(await getMemory(ctx, online.id))).toEqual(stateOf(online));

    // A wording the user's rules refuse is neither written nor, under review, offered.
    await createRule(ctx, { text: "Never remember where I play", terms: ["tournaments"] });
    const ruled = () => rawManager(JSON.stringify({ ops: [merge("User plays chess online and in tournaments")] }));
    for (const review of ["off", "all"] as const) {
      await updateSettings(ctx, { review });
      const refusedByRule = await runConsolidation({ ctx, model: ruled(), modelId: "mock" }, job());
      expect(refusedByRule).toMatchObject({ status: "succeeded", applied: 0, rejected: 1 });
      expect(stateOf(await getMemory(ctx, online.id))).toEqual(stateOf(online));
    }
    expect((await listProposals(ctx, { status: "pending" })).proposals).toEqual([]);

    const wording = "User plays chess, mostly online in the evenings";
    await runConsolidation(
      { ctx, model: rawManager(JSON.stringify({ ops: [merge(wording)] })), modelId: "mock" },
      job(),
    );
    const { proposals } = await listProposals(ctx, { status: "pending" });
    expect(proposals).toMatchObject([{ op: "merge", memoryId: online.id, text: wording }]);
    expect(stateOf(await getMemory(ctx, online.id))).toEqual(stateOf(online));

    await approveProposal(ctx, proposals[0]!.id, { content: "User plays chess online, most evenings" });
    // The person's wording is theirs: a later run only proposes a change to it.
    expect(await getMemory(ctx, online.id)).toMatchObject({
      text: "User plays chess online, most evenings",
      mergedFrom: [short.id],
      actor: { type: "user" },
    });
    expect((await getMemory(ctx, short.id)).status).toBe("merged");
  });

  it("shows the model, with no vectors, two memories naming one thing in words few others hold, and merges them", async () => {
    const { ctx, extractor } = await setup();
    const liking = await createMemory(extractor, { content: "User adores sailing small boats on the lake" });
    const others = [];
    for (const content of ["User loves green tea", "User loves old films", "User loves long walks", "User loves jazz"])
      others.push(await createMemory(extractor, { content }));
    const restated = await createMemory(extractor, {
      content: "Most weekends, the user goes sailing small boats on the lake",
    });

    expect(await runConsolidation(offline(ctx), job())).toMatchObject({ status: "succeeded", groups: 1, applied: 1 });
    expect(await getMemory(ctx, liking.id)).toMatchObject({ status: "merged", mergedInto: restated.id });
    for (const memory of others) expect(stateOf(await getMemory(ctx, memory.id))).toEqual(stateOf(memory));
  });

  it("keeps apart facts that differ in one name, number or quantifier, however alike: a run judges them once", async () => {
    const { ctx, extractor } = await setup();
    const first = await createMemory(extractor, { content: "Parcel 1x0x5 is in bay 6" });
    const second = await createMemory(extractor, { content: "Parcel 1x1x5 is in bay 6" });
    const some = await createMemory(extractor, { content: "User feeds the cats next door" });
    const all = await createMemory(extractor, { content: "User feeds all the cats next door" });
    expect((await memoryHealth(ctx)).duplicates).toBe(2);

    expect(await runConsolidation(offline(ctx), job())).toMatchObject({ status: "succeeded", groups: 2, applied: 0 });
    for (const memory of [first, second, some, all]) {
      expect(stateOf(await getMemory(ctx, memory.id))).toEqual(stateOf(memory));
    }
    expect((await memoryHealth(ctx)).duplicates).toBe(0);
  });

  it("pairs one slot however it is worded, as the offline model's slot table reads it", async () => {
    const { ctx, extractor } = await setup();
    const lisbon = await createMemory(extractor, { content: "The user's home is in Lisbon." });
    const nurse = await createMemory(extractor, { content: "User's job is nurse" });
    await createMemory(extractor, { content: "User relocated to a new flat" });
    const porto = await createMemory(extractor, { content: "User moved to Porto" });
    const teacher = await createMemory(extractor, { content: "User works as a teacher at a school" });
    expect(await memoryHealth(ctx)).toMatchObject({ duplicates: 0, conflicts: 2 });

    const outcome = await runConsolidation(offline(ctx), job());
    expect(outcome).toMatchObject({ status: "succeeded", groups: 2, applied: 2 });
    expect((await getMemory(ctx, lisbon.id)).validTo?.toISOString()).toBe(porto.createdAt.toISOString());
    expect((await getMemory(ctx, nurse.id)).validTo?.toISOString()).toBe(teacher.createdAt.toISOString());
    expect(await memoryHealth(ctx)).toMatchObject({ duplicates: 0, conflicts: 0 });
  });

  it("counts no conflict between facts that accumulate, though they open alike; one attribute's two values are one", async () => {
    const { ctx, extractor } = await setup();
    const kept = [];
    for (const content of [
      "User has a dog named Rex",
      "User has a cat named Tom",
      "User likes to cook Thai food",
      "User likes to cook Italian food",
    ])
      kept.push(await createMemory(extractor, { content }));
    const radiohead = await createMemory(extractor, { content: "User's favourite band is Radiohead" });
    const pearlJam = await createMemory(extractor, { content: "User's favourite band is Pearl Jam" });
    // One value however it is punctuated: the same, as the run merges it.
    await createMemory(extractor, { content: "User's favourite colour is sky-blue, like the sea" });
    await createMemory(extractor, { content: "User's favourite colour is sky blue like the sea" });
    expect(await memoryHealth(ctx)).toMatchObject({ duplicates: 1, conflicts: 1 });

    expect(await runConsolidation(offline(ctx), job())).toMatchObject({ status: "succeeded", applied: 2 });
    expect((await memoryHealth(ctx)).duplicates).toBe(0);
    expect((await getMemory(ctx, radiohead.id)).validTo?.toISOString()).toBe(pearlJam.createdAt.toISOString());
    for (const memory of kept) expect(stateOf(await getMemory(ctx, memory.id))).toEqual(stateOf(memory));
  });

  it("pairs a job or a home the table does not know, by WordNet, but not a relative's job", async () => {
    const { ctx, extractor } = await setup();
    const nurse = await createMemory(extractor, { content: "User is a nurse by trade" });
    const lisbon = await createMemory(extractor, { content: "User lives in Lisbon" });
    const sister = await createMemory(extractor, { content: "User's sister is a teacher" });
    const teacher = await createMemory(extractor, { content: "User started a new job as a teacher" });
    const porto = await createMemory(extractor, { content: "User settled in Porto" });
    expect(await memoryHealth(ctx)).toMatchObject({ duplicates: 0, conflicts: 2 });

    expect(await runConsolidation(offline(ctx), job())).toMatchObject({ status: "succeeded", groups: 2, applied: 2 });
    expect((await getMemory(ctx, nurse.id)).validTo?.toISOString()).toBe(teacher.createdAt.toISOString());
    expect((await getMemory(ctx, lisbon.id)).validTo?.toISOString()).toBe(porto.createdAt.toISOString());
    expect(stateOf(await getMemory(ctx, sister.id))).toEqual(stateOf(sister));
    expect(await memoryHealth(ctx)).toMatchObject({ duplicates: 0, conflicts: 0 });
  });

  it("pairs a slot written without the user as subject, under a label or as something the user said", async () => {
    const { ctx, extractor } = await setup();
    const seville = await createMemory(extractor, { content: "Lives in Seville." });
    const teacher = await createMemory(extractor, { content: "Occupation: teacher (approx. 8 years experience)" });
    const lyon = await createMemory(extractor, { content: "User mentioned they moved to Lyon a few weeks ago." });
    const chef = await createMemory(extractor, { content: "Works as a chef." });
    const parents = await createMemory(extractor, { content: "Parents live in Rome" });
    expect(await memoryHealth(ctx)).toMatchObject({ duplicates: 0, conflicts: 2 });

    expect(await runConsolidation(offline(ctx), job())).toMatchObject({ status: "succeeded", groups: 2, applied: 2 });
    expect((await getMemory(ctx, seville.id)).validTo?.toISOString()).toBe(lyon.createdAt.toISOString());
    expect((await getMemory(ctx, teacher.id)).validTo?.toISOString()).toBe(chef.createdAt.toISOString());
    expect(stateOf(await getMemory(ctx, parents.id))).toEqual(stateOf(parents));
  });

  it("expires a past plan held by an event WordNet knows, not a past fact that names none", async () => {
    const { ctx, extractor } = await setup();
    const concert = await createMemory(extractor, {
      content: "User has tickets for a concert in Porto on 2026-01-05",
      validFrom: "2026-01-01",
    });
    // An aside's words are not the plan's verb: "light" (WordNet: to begin to burn) does not make it a beginning.
    const flight = await createMemory(extractor, {
      content: "User is flying to Nantes on 2026-01-04 for a wedding and wants help packing light",
      validFrom: "2026-01-01",
    });
    // A habit, or what holds from a day on, is no plan of one day, though it names an event.
    const habits = [];
    for (const content of [
      "User has a team meeting every Monday from 2026-01-05",
      "User plays in a chess tournament on Tuesdays, starting 2026-01-06",
      "User's son will be in the school show from 2026-01-05",
    ])
      habits.push(await createMemory(extractor, { content, validFrom: "2026-01-01" }));
    const born = await createMemory(extractor, { content: "User's daughter was born on 2026-01-02" });
    // Written after the day it names: a past fact, though it names an event.
    const met = await createMemory(extractor, { content: "User met their partner at a conference on 2024-05-02" });
    expect(await memoryHealth(ctx)).toMatchObject({ expired: 2 });

    expect(await runConsolidation(offline(ctx), job())).toMatchObject({ status: "succeeded", applied: 2 });
    expect((await getMemory(ctx, concert.id)).validTo?.toISOString()).toBe("2026-01-06T00:00:00.000Z");
    expect((await getMemory(ctx, flight.id)).validTo?.toISOString()).toBe("2026-01-05T00:00:00.000Z");
    for (const memory of habits) expect(stateOf(await getMemory(ctx, memory.id))).toEqual(stateOf(memory));
    expect(stateOf(await getMemory(ctx, born.id))).toEqual(stateOf(born));
    expect(stateOf(await getMemory(ctx, met.id))).toEqual(stateOf(met));
  });

  it("expires a journey written ahead of its day once the day has passed, not a day that comes back or what begins", async () => {
    const { ctx, extractor } = await setup();
    const train = await createMemory(extractor, { content: "User's train to Ghent leaves on 2026-01-20" });
    const off = await createMemory(extractor, { content: "User is off to Lisbon on 2026-01-22" });
    const stay = await createMemory(extractor, {
      content: "User is on holiday in Faro from 2026-01-10 until 2026-02-10",
    });
    const hotel = await createMemory(extractor, { content: "User is staying at a hotel in Rome until 2026-01-25" });
    const kept = [];
    for (const content of [
      "User starts at Acme on 2026-01-20",
      "User's birthday is on 2026-01-20",
      "User and their partner will celebrate their anniversary on 2026-01-21",
      "User's wedding is on 2026-01-20",
      "User retires on 2026-01-20",
      "User will retire on 2026-01-20",
      "User will start at Acme on 2026-01-20",
      "User is moving back home to Lisbon for good on 2026-01-20",
      "User's sister arrives to live with them in Porto on 2026-01-20",
      "User worked at Google from 2015-01-01 until 2025-06-30",
      // A beginning in the main clause or opening another clause, away from the date's.
      "User will move to Porto; the movers come on 2026-01-20",
      "User flies to Lisbon on 2026-01-20 and starts a new job there",
      "User flies to Porto on 2026-01-20. They start a new job there.",
      "User's flight to Berlin is on 2026-01-20. It is a permanent move.",
    ])
      kept.push(await createMemory(extractor, { content }));
    const later = { ...ctx, clock: () => new Date("2026-02-01T00:00:00.000Z") };
    expect(await memoryHealth(later)).toMatchObject({ expired: 3 });

    expect(await runConsolidation(offline(later), job())).toMatchObject({ status: "succeeded", applied: 3 });
    expect((await getMemory(ctx, train.id)).validTo?.toISOString()).toBe("2026-01-21T00:00:00.000Z");
    expect((await getMemory(ctx, off.id)).validTo?.toISOString()).toBe("2026-01-23T00:00:00.000Z");
    expect((await getMemory(ctx, hotel.id)).validTo?.toISOString()).toBe("2026-01-26T00:00:00.000Z");
    for (const memory of kept) expect(stateOf(await getMemory(ctx, memory.id))).toEqual(stateOf(memory));
    expect(stateOf(await getMemory(ctx, stay.id))).toEqual(stateOf(stay));
  });

  it("keeps the job the user has beside one they no longer hold: a past job is no value of the job slot", async () => {
    const { ctx, extractor } = await setup();
    const nurse = await createMemory(extractor, { content: "User is a nurse" });
    const teacher = await createMemory(extractor, { content: "User is a teacher" });
    const quit = await createMemory(extractor, { content: "User quit their job as a teacher" });
    const retired = await createMemory(extractor, { content: "User retired from their career as a pilot" });
    // The nurse and the teacher are two values of the job slot; quitting and retiring are neither.
    expect(await memoryHealth(ctx)).toMatchObject({ duplicates: 0, conflicts: 1 });

    expect(await runConsolidation(offline(ctx), job())).toMatchObject({ status: "succeeded", groups: 1, applied: 1 });
    expect((await getMemory(ctx, nurse.id)).validTo?.toISOString()).toBe(teacher.createdAt.toISOString());
    for (const memory of [teacher, quit, retired]) {
      expect(stateOf(await getMemory(ctx, memory.id))).toEqual(stateOf(memory));
    }
  });

  if (backend === "pglite") {
    it("shows the model memories close in meaning that share no wording, and applies its merge", async () => {
      const { ctx, extractor } = await setup();
      const embeddingModel = topicEmbeddingModel();
      const embedded = withEmbedding(extractor, embeddingModel);
      const cat = await createMemory(embedded, { content: "User has a cat called Tom" });
      const feline = await createMemory(embedded, { content: "Tom is the feline who lives with the user" });
      const car = await createMemory(embedded, { content: "User drives an old vehicle" });
      expect((await memoryHealth(ctx)).duplicates).toBe(0);
      const merge = { op: "merge", ids: [cat.id, feline.id], into: cat.id, validTo: null, reason: "one cat" };

      const lexicalOnly = await runConsolidation({ ctx, model: rawManager("{}"), modelId: "mock" }, job());
      expect(lexicalOnly).toMatchObject({ status: "succeeded", groups: 0 });

      const manager = rawManager(JSON.stringify({ ops: [merge] }));
      const outcome = await runConsolidation(
        { ctx: { ...ctx, embeddingModel }, model: manager, modelId: "mock" },
        job(),
      );
      expect(outcome).toMatchObject({ status: "succeeded", groups: 1, applied: 1 });
      const shown = JSON.stringify(manager.doGenerateCalls[0]?.prompt);
      expect(shown).toContain(cat.id);
      expect(shown).toContain('\\"relation\\": \\"close\\"');
      expect(shown).not.toContain(car.id);
      expect(await getMemory(ctx, feline.id)).toMatchObject({ status: "merged", mergedInto: cat.id });
    });
  }

  if (backend === "pglite") {
    it("shows the model two memories that are each other's nearest, though not close by the threshold", async () => {
      const { ctx, extractor } = await setup();
      // The liking and its restatement: 0.6 apart from each other, each the other's nearest. The third's nearest is
      // the restatement (0.48), whose nearest is the liking: it is shown with neither.
      const vectors: Record<string, number[]> = {
        "User is very into hiking in the mountains": [1, 0, 0],
        "User's weekends are for hiking in the mountains": [0.6, 0.8, 0],
        "User's weekends start with a long run": [0, 0.6, 0.8],
      };
      const embeddingModel = new MockEmbeddingModelV4({
        provider: "toy",
        modelId: "fixed",
        maxEmbeddingsPerCall: 16,
        doEmbed: async ({ values }) => ({ embeddings: values.map((value) => vectors[value]!), warnings: [] }),
      });
      const embedded = withEmbedding(extractor, embeddingModel);
      const run: Memory[] = [];
      for (const content of Object.keys(vectors)) run.push(await createMemory(embedded, { content }));
      const outcome = await runConsolidation(offline({ ...ctx, embeddingModel }), job());
      expect(outcome).toMatchObject({ status: "succeeded", groups: 1, applied: 1 });
      const [liking, restated, other] = run as [Memory, Memory, Memory];
      expect(await getMemory(ctx, restated.id)).toMatchObject({ status: "merged", mergedInto: liking.id });
      expect(stateOf(await getMemory(ctx, other.id))).toEqual(stateOf(other));
    });
  }

  if (backend === "pglite") {
    /**
     * A clock a day ahead of the database's: the vectors an embedding job writes carry the database's time, so an
     * old memory's vector reads as written before a run this clock started, as it would have been. `passAnHour`
     * moves it on: memories written before are then older than the window a run allows for writes in flight
     * (UNSEEN_WRITES_MS), so a run after a complete one does not probe them.
     */
    const ahead = () => {
      const stepping = steppingClock(Date.now() + 86_400_000);
      let passed = 0;
      return Object.assign(() => new Date(stepping().getTime() + passed), {
        passAnHour: () => {
          passed += 3_600_000;
        },
      });
    };

    it("after a run that showed every group, probes only what changed since: a new memory still meets an old one", async () => {
      const { ctx, extractor } = await setup();
      const clock = ahead();
      const embeddingModel = topicEmbeddingModel();
      const embedded = withEmbedding({ ...extractor, clock }, embeddingModel);
      const old = [
        await createMemory(embedded, { content: "User has a cat called Tom" }),
        await createMemory(embedded, { content: "User drives an old vehicle" }),
        await createMemory(embedded, { content: "User starts the day with an espresso" }),
      ];
      clock.passAnHour();
      const first = await runConsolidation(
        { ctx: { ...ctx, clock, embeddingModel }, model: rawManager("{}"), modelId: "mock" },
        job(),
      );
      expect(first).toMatchObject({ status: "succeeded", groups: 0 });
      expect(await getConsolidationRun(ctx, first.runId!)).toMatchObject({ complete: true });

      // Each new memory is close in meaning to one old one; ids are random, so the pairs come in both orders.
      const added = [
        await createMemory(embedded, { content: "Tom is the feline who lives with the user" }),
        await createMemory(embedded, { content: "The user's car is a 1998 estate" }),
        await createMemory(embedded, { content: "User cannot work before a coffee" }),
      ];
      const manager = rawManager(...Array.from({ length: 3 }, () => JSON.stringify({ ops: [] })));
      const second = await runConsolidation(
        { ctx: { ...ctx, clock, embeddingModel }, model: manager, modelId: "mock" },
        job(),
      );
      expect(second).toMatchObject({ status: "succeeded", groups: 3 });
      const shown = manager.doGenerateCalls.map((call) => JSON.stringify(call.prompt));
      for (const [index, memory] of old.entries()) {
        expect(shown.some((prompt) => prompt.includes(memory.id) && prompt.includes(added[index]!.id))).toBe(true);
      }
    });

    it("after a complete run, pairs a new memory with an old nearest only if it is that one's nearest", async () => {
      const vectors: Record<string, number[]> = {
        // Old: the first's nearest is the second (0.7), whose nearest is the third (0.71): the first run shows the
        // second and the third, and the model keeping them apart, they are no candidates again.
        "User likes trail running": [1, 0, 0, 0, 0],
        "User runs on forest paths": [0.7, 0.714, 0, 0, 0],
        "User owns trail shoes": [0, 1, 0, 0, 0],
        // Old, alone: nothing is near it.
        "User keeps bees": [0, 0, 0, 0, 1],
        // New: nearest to the first (0.6), whose nearest stays the second.
        "User jogs in the hills": [0.6, 0, 0.8, 0, 0],
        // New: nearest to the bees (0.6), whose nearest it now is.
        "User collects honey from the hives": [0, 0, 0, 0.8, 0.6],
      };
      const { ctx, extractor } = await setup();
      const clock = ahead();
      const embeddingModel = new MockEmbeddingModelV4({
        provider: "toy",
        modelId: "fixed",
        maxEmbeddingsPerCall: 16,
        doEmbed: async ({ values }) => ({ embeddings: values.map((value) => vectors[value]!), warnings: [] }),
      });
      const embedded = withEmbedding({ ...extractor, clock }, embeddingModel);
      const [liking, paths, shoes, bees, hills, honey] = Object.keys(vectors);
      const memories = new Map<string, Memory>();
      for (const content of [liking, paths, shoes, bees] as string[]) {
        memories.set(content, await createMemory(embedded, { content }));
      }
      const deps = { ctx: { ...ctx, clock, embeddingModel }, modelId: "mock" };
      clock.passAnHour();
      const first = await runConsolidation({ ...deps, model: rawManager("{}") }, job());
      expect(first).toMatchObject({ status: "succeeded", groups: 1 });
      expect(await getConsolidationRun(ctx, first.runId!)).toMatchObject({ complete: true });

      for (const content of [hills, honey] as string[]) {
        memories.set(content, await createMemory(embedded, { content }));
      }
      const manager = rawManager(JSON.stringify({ ops: [] }), JSON.stringify({ ops: [] }));
      const second = await runConsolidation({ ...deps, model: manager }, job());
      // The new memories are probed, the old ones not: each new one's old nearest is asked for its own nearest.
      expect(second).toMatchObject({ status: "succeeded", groups: 1 });
      const shown = JSON.stringify(manager.doGenerateCalls[0]?.prompt);
      expect(shown).toContain(memories.get(bees!)!.id);
      expect(shown).toContain(memories.get(honey!)!.id);
      expect(shown).not.toContain(memories.get(hills!)!.id);
    });

    it("after a run cut at its group limit, the next run looks at every memory again", async () => {
      const { ctx, extractor } = await setup();
      const clock = ahead();
      const embeddingModel = topicEmbeddingModel();
      const embedded = withEmbedding({ ...extractor, clock }, embeddingModel);
      await createMemory(embedded, { content: "User has a cat called Tom" });
      await createMemory(embedded, { content: "Tom is the feline who lives with the user" });
      await createMemory(embedded, { content: "User drives an old vehicle" });
      await createMemory(embedded, { content: "The user's car is a 1998 estate" });
      const deps = { ctx: { ...ctx, clock, embeddingModel }, modelId: "mock", maxGroups: 1 };
      const cut = await runConsolidation({ ...deps, model: rawManager("{}") }, job());
      expect(cut).toMatchObject({ status: "succeeded", groups: 1 });
      expect(await getConsolidationRun(ctx, cut.runId!)).toMatchObject({ complete: false });
      // Nothing changed since, yet the group the cut run left over is shown now.
      const next = await runConsolidation({ ...deps, model: rawManager("{}") }, job());
      expect(next).toMatchObject({ status: "succeeded", groups: 1 });
    });
  }

  it("rejects each bad op with its reason and applies the others", async () => {
    const { ctx, extractor } = await setup();
    const a = await createMemory(extractor, { content: "User drinks oat milk" });
    const b = await createMemory(extractor, { content: "User drinks oat milk." });
    const other = await createMemory(extractor, {
      kind: "preference",
      content: { preference: "User drinks oat milk" },
    });
    const model = rawManager(
      JSON.stringify({
        ops: [
          { op: "merge", ids: [a.id, "00000000-0000-4000-8000-000000000000"], into: a.id },
          { op: "merge", ids: [], into: a.id },
          { op: "explode", ids: [a.id] },
          { op: "merge", ids: [a.id, other.id], into: a.id },
          { op: "expire", ids: [b.id], into: null, validTo: "2026-01-02", text: "User drank oat milk" },
          { op: "merge", ids: [a.id, b.id], into: a.id, validTo: null, reason: "same" },
        ],
      }),
    );
    const outcome = await runConsolidation({ ctx, model, modelId: "mock" }, job());
    expect(outcome).toMatchObject({ status: "succeeded", applied: 1, rejected: 5 });
    if (outcome.status !== "succeeded") return;
    const run = await getConsolidationRun(ctx, outcome.runId);
    expect(run.opsRejected.map((entry) => (entry as { reason: string }).reason)).toEqual([
      "cites memory 00000000-0000-4000-8000-000000000000, which was not shown in this group",
      "the op cites no memory ids",
      expect.stringMatching(/^invalid op \(op: /),
      `cites memory ${other.id}, which was not shown in this group`,
      '"text" is for a merge: this expire writes none',
    ]);
    expect(await getMemory(ctx, b.id)).toMatchObject({ status: "merged", mergedInto: a.id });
    expect((await getMemory(ctx, other.id)).status).toBe("active");
  });
});
