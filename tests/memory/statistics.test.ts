import { sql } from "drizzle-orm";
import { expect, it } from "vitest";
import {
  createMemories,
  createMemory,
  deleteMemory,
  purgeMemory,
  replaceMemory,
  restoreMemory,
  updateMemory,
} from "@/lib/memory/store";
import { COUNTED_TOGETHER_FROM } from "@/lib/memory/store/bulk-statistics";
import { describeEachDatabase } from "../support/databases";
import { contextFor, createUser, dumpAllRows, expectStatisticsRecomputed } from "./support";

describeEachDatabase("search statistics kept by row triggers", (use) => {
  const vocabulary = async (userId: string) =>
    (
      await use().unbound.rows<{ term: string }>(
        sql`select term from memory_terms where user_id = ${userId}::uuid order by term`,
      )
    ).map((row) => row.term);

  it("purging an edited memory takes the words of every earlier text out of the vocabulary", async () => {
    const own = contextFor(use(), await createUser(use()));
    const memory = await createMemory(own, { content: "Ottoline grows quillberries" });
    await createMemory(own, { content: "Ottoline drinks water" });
    await updateMemory(own, memory.id, { content: "Ottoline grows hibiscus" });
    expect(await vocabulary(own.principal.userId)).toEqual(["drinks", "grows", "hibiscus", "ottoline", "water"]);
    await purgeMemory(own, memory.id);
    expect(await vocabulary(own.principal.userId)).toEqual(["drinks", "ottoline", "water"]);
    expect(await dumpAllRows(use())).not.toMatch(/quillberr/i);
  });

  it("equal a recount over the memories after any mix of writes by two users", async () => {
    const alice = contextFor(use(), await createUser(use()));
    const bob = contextFor(use(), await createUser(use()));
    const carol = contextFor(use(), await createUser(use()));

    const tea = await createMemory(alice, { content: "Ottoline likes rooibos tea" });
    const [sunday, caffeine, dog] = await createMemories(alice, [
      { content: "Tea with Ottoline every Sunday" },
      { content: "Rooibos is caffeine free" },
      { content: "Walks the dog before tea" },
    ]);
    const [bobTea, bobCar] = await createMemories(bob, [
      { content: "Ottoline is my neighbour and likes tea" },
      { content: "Drives an old Volvo" },
      { content: "Drives to work on Mondays" },
    ]);
    await createMemories(carol, [{ content: "Carol keeps bees" }, { content: "Honey from the bees" }]);
    // A batch large enough to be counted set-wise rather than by the insert trigger
    // (lib/memory/store/bulk-statistics.ts).
    await createMemories(
      carol,
      Array.from({ length: COUNTED_TOGETHER_FROM + 3 }, (_, i) => ({
        content: `Hive ${i % 4} gave honey in week ${i}`,
      })),
    );
    await expectStatisticsRecomputed(use());

    // Text edits, including one to the same words in another case and one back to an earlier text.
    await updateMemory(alice, tea!.id, { content: "Ottoline prefers hibiscus tea" });
    await updateMemory(bob, bobTea!.id, { content: "OTTOLINE is my neighbour and likes TEA" });
    await updateMemory(bob, bobTea!.id, { content: "Ottoline is my neighbour and likes coffee" });
    // Metadata, pins and validity only: no statistic moves.
    await updateMemory(alice, sunday!.id, { metadata: { mood: "calm" } });
    await updateMemory(alice, sunday!.id, { pinned: true });
    await updateMemory(bob, bobCar!.id, { validFrom: "2020-01-01T00:00:00.000Z" });
    await expectStatisticsRecomputed(use());

    // Delete and restore; delete then purge; purge an active edited memory; write a purged one again.
    await deleteMemory(alice, caffeine!.id);
    await expectStatisticsRecomputed(use());
    await restoreMemory(alice, caffeine!.id);
    await deleteMemory(alice, dog!.id);
    await purgeMemory(alice, dog!.id);
    await purgeMemory(alice, tea!.id);
    await purgeMemory(bob, bobTea!.id);
    await expectStatisticsRecomputed(use());
    await replaceMemory(alice, dog!.id, { content: "Walks the dog after dinner" });
    await deleteMemory(bob, bobCar!.id);
    await expectStatisticsRecomputed(use());

    // Statements outside the core: a multi-row update of text and status, a hard delete, and deleting a user (whose
    // memories and statistics go in one cascade).
    await use().unbound.rows(sql`
      update memories set text = text || ' again', status = 'active'
      where user_id = ${bob.principal.userId}::uuid and purged_at is null`);
    await use().unbound.rows(
      sql`delete from memories where user_id = ${alice.principal.userId}::uuid and id = ${sunday!.id}::uuid`,
    );
    await use().unbound.rows(sql`delete from users where id = ${carol.principal.userId}::uuid`);
    await expectStatisticsRecomputed(use());
    expect(await vocabulary(carol.principal.userId)).toEqual([]);
  });
});
