import { expect, it } from "vitest";
import {
  deleteThread,
  ensureThread,
  getThread,
  listThreads,
  loadMessages,
  renameThread,
  ThreadNotFoundError,
  writeMessagesFrom,
} from "@/lib/chat/threads";
import { createUser } from "../memory/support";
import { describeEachDatabase } from "../support/databases";

describeEachDatabase("chat threads", (use) => {
  it("pages a user's threads newest first and never shows another user's", async () => {
    const { db } = use();
    const me = await createUser(use());
    const other = await createUser(use());
    for (let index = 0; index < 5; index++) {
      await ensureThread(db, me, `t${index}`);
      await writeMessagesFrom(
        db,
        me,
        `t${index}`,
        [{ id: `m${index}`, role: "user", parts: [{ type: "text", text: "hi" }] }],
        0,
      );
    }
    await ensureThread(db, other, "t0");
    const first = await listThreads(db, me, { limit: 2 });
    const second = await listThreads(db, me, { limit: 2, cursor: first.nextCursor! });
    const third = await listThreads(db, me, { limit: 2, cursor: second.nextCursor! });
    const ids = [...first.threads, ...second.threads, ...third.threads].map((thread) => thread.id);
    expect(ids).toEqual(["t4", "t3", "t2", "t1", "t0"]);
    expect(third.nextCursor).toBeNull();
    expect((await listThreads(db, other)).threads.map((thread) => thread.id)).toEqual(["t0"]);
    expect(await loadMessages(db, other, "t0")).toEqual([]);
  });

  it("renames and deletes only the owner's thread", async () => {
    const { db } = use();
    const me = await createUser(use());
    const other = await createUser(use());
    await ensureThread(db, me, "mine");
    await renameThread(db, me, "mine", "Trip planning");
    expect((await getThread(db, me, "mine"))?.title).toBe("Trip planning");
    await expect(renameThread(db, other, "mine", "hijack")).rejects.toBeInstanceOf(ThreadNotFoundError);
    await expect(deleteThread(db, other, "mine")).rejects.toBeInstanceOf(ThreadNotFoundError);
    await deleteThread(db, me, "mine");
    expect(await getThread(db, me, "mine")).toBeNull();
  });
});
