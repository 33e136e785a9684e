"use server";

import { revalidatePath } from "next/cache";
import { z } from "zod";
import { sessionAction } from "@/lib/api/session-action";
import { deleteThread, listThreads, renameThread, ThreadNotFoundError } from "@/lib/chat/threads";
import { LIMITS } from "@/lib/memory/contract";

const threadId = z.string().regex(/^[\w-]{1,100}$/);
const title = z
  .string()
  .trim()
  .min(1, "A title cannot be empty.")
  .max(LIMITS.threadTitleChars, `Keep the title under ${LIMITS.threadTitleChars} characters.`);

export const renameThreadAction = sessionAction(z.object({ id: threadId, title }), async (input, user) => {
  await renameThread(user, input.id, input.title);
  revalidatePath("/", "layout");
  return {};
});

export const deleteThreadAction = sessionAction(z.string(), async (id, user) => {
  // A malformed id names no chat of the caller's, and is answered as one.
  if (!threadId.safeParse(id).success) throw new ThreadNotFoundError();
  await deleteThread(user, id);
  revalidatePath("/", "layout");
  return {};
});

/** The sidebar's next page; a cursor it cannot read starts over (listThreads). */
export const loadThreadsAction = sessionAction(z.string().max(LIMITS.cursorChars), async (cursor, user) =>
  listThreads(user, { cursor }),
);
