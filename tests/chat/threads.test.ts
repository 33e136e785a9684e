import { eq } from "drizzle-orm";
import { expect, it } from "vitest";
import {
  deleteThread,
  ensureThread,
  getThread,
  listThreads,
  loadMessages,
  renameThread,
  ThreadChangedError,
  ThreadNotFoundError,
  writeMessagesFrom,
} from "@/lib/chat/threads";
import { threads } from "@/lib/db/schema";
import { bindingFor, createUser } from "../memory/support";
import { describeEachDatabase } from "../support/databases";

describeEachDatabase("chat threads", (use) => {
  it("pages a user's threads newest first and never shows another user's", async () => {
    const database = use();
    const me = await createUser(use());
    const other = await createUser(use());
    for (let index = 0; index < 5; index++) {
      await ensureThread(bindingFor(database, me), `t${index}`);
      await writeMessagesFrom(
        bindingFor(database, me),
        `t${index}`,
        [{ id: `m${index}`, role: "user", parts: [{ type: "text", text: "hi" }] }],
        0,
      );
    }
    await ensureThread(bindingFor(database, other), "t0");
    const first = await listThreads(bindingFor(database, me), { limit: 2 });
    const second = await listThreads(bindingFor(database, me), { limit: 2, cursor: first.nextCursor! });
    const third = await listThreads(bindingFor(database, me), { limit: 2, cursor: second.nextCursor! });
    const ids = [...first.threads, ...second.threads, ...third.threads].map((thread) => thread.id);
    expect(ids).toEqual(["t4", "t3", "t2", "t1", "t0"]);
    expect(third.nextCursor).toBeNull();
    expect((await listThreads(bindingFor(database, other))).threads.map((thread) => thread.id)).toEqual(["t0"]);
    expect(await loadMessages(bindingFor(database, other), "t0")).toEqual([]);
  });

  it("renames and deletes only the owner's thread", async () => {
    const database = use();
    const me = await createUser(use());
    const other = await createUser(use());
    await ensureThread(bindingFor(database, me), "mine");
    await renameThread(bindingFor(database, me), "mine", "Trip planning");
    expect((await getThread(bindingFor(database, me), "mine"))?.title).toBe("Trip planning");
    await expect(renameThread(bindingFor(database, other), "mine", "hijack")).rejects.toBeInstanceOf(
      ThreadNotFoundError,
    );
    await expect(deleteThread(bindingFor(database, other), "mine")).rejects.toBeInstanceOf(ThreadNotFoundError);
    await deleteThread(bindingFor(database, me), "mine");
    expect(await getThread(bindingFor(database, me), "mine")).toBeNull();
  });

  it("refuses writes from a stale view of the thread, and a rewrite moves the extraction cursor back", async () => {
    const database = use();
    const me = await createUser(use());
    await ensureThread(bindingFor(database, me), "race");
    const text = (id: string, role: "user" | "assistant" = "user") => ({
      id,
      role,
      parts: [{ type: "text" as const, text: id }],
    });
    await writeMessagesFrom(bindingFor(database, me), "race", [text("a-question")], 0);
    // A second tab that read the empty thread must not overwrite the first tab's message.
    await expect(writeMessagesFrom(bindingFor(database, me), "race", [text("b-question")], 0)).rejects.toBeInstanceOf(
      ThreadChangedError,
    );
    // An answer whose question is no longer where it was read is not stored either.
    await expect(
      writeMessagesFrom(bindingFor(database, me), "race", [text("b-question"), text("b-answer", "assistant")], 1),
    ).rejects.toBeInstanceOf(ThreadChangedError);
    await writeMessagesFrom(bindingFor(database, me), "race", [text("a-question"), text("a-answer", "assistant")], 1);
    await database.unbound.db.update(threads).set({ extractedThrough: 2 }).where(eq(threads.userId, me));
    await writeMessagesFrom(bindingFor(database, me), "race", [text("a-question")], 1, { replace: true });
    expect((await loadMessages(bindingFor(database, me), "race")).map((m) => m.id)).toEqual(["a-question"]);
    expect((await getThread(bindingFor(database, me), "race"))?.extractedThrough).toBe(1);
  });
});
