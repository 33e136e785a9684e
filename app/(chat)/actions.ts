"use server";

import { revalidatePath } from "next/cache";
import { z } from "zod";
import { actionPrincipal } from "@/lib/api/caller";
import { deleteThread, listThreads, renameThread, ThreadNotFoundError } from "@/lib/chat/threads";
import { getDatabase } from "@/lib/db";
import { type ActionResult, parseInput, settleAction } from "@/lib/errors";
import { LIMITS } from "@/lib/memory";

const threadId = z.string().regex(/^[\w-]{1,100}$/);
const title = z
  .string()
  .trim()
  .min(1, "A title cannot be empty.")
  .max(LIMITS.threadTitleChars, `Keep the title under ${LIMITS.threadTitleChars} characters.`);

async function requireUser() {
  const principal = await actionPrincipal();
  return { database: await getDatabase(), principal };
}

export async function renameThreadAction(id: string, newTitle: string): Promise<ActionResult> {
  return settleAction(async () => {
    const user = await requireUser();
    const input = parseInput(z.object({ id: threadId, title }), { id, title: newTitle });
    await renameThread(user, input.id, input.title);
    revalidatePath("/", "layout");
    return {};
  });
}

export async function deleteThreadAction(id: string): Promise<ActionResult> {
  return settleAction(async () => {
    const user = await requireUser();
    if (!threadId.safeParse(id).success) throw new ThreadNotFoundError();
    await deleteThread(user, id);
    revalidatePath("/", "layout");
    return {};
  });
}

export async function loadThreadsAction(cursor: string) {
  const user = await requireUser();
  const parsed = z.string().max(LIMITS.cursorChars).safeParse(cursor);
  if (!parsed.success) return { threads: [], nextCursor: null };
  return listThreads(user, { cursor: parsed.data });
}
