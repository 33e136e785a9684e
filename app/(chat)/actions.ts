"use server";

import { revalidatePath } from "next/cache";
import { z } from "zod";
import { currentPrincipal } from "@/app/(auth)/session";
import { deleteThread, listThreads, renameThread, ThreadNotFoundError } from "@/lib/chat/threads";
import { getDatabase } from "@/lib/db";

const threadId = z.string().regex(/^[\w-]{1,100}$/);
const title = z.string().trim().min(1, "A title cannot be empty.").max(80, "Keep the title under 80 characters.");

export type ActionResult = { ok: true } | { ok: false; error: string };

async function requireUser() {
  const principal = await currentPrincipal();
  if (!principal) throw new Error("Not signed in.");
  return { userId: principal.userId, db: (await getDatabase()).db };
}

export async function renameThreadAction(id: string, newTitle: string): Promise<ActionResult> {
  const parsed = z.object({ id: threadId, title }).safeParse({ id, title: newTitle });
  if (!parsed.success) return { ok: false, error: parsed.error.issues[0]?.message ?? "Invalid title." };
  const { userId, db } = await requireUser();
  try {
    await renameThread(db, userId, parsed.data.id, parsed.data.title);
  } catch (error) {
    if (error instanceof ThreadNotFoundError) return { ok: false, error: error.message };
    throw error;
  }
  revalidatePath("/", "layout");
  return { ok: true };
}

export async function deleteThreadAction(id: string): Promise<ActionResult> {
  const parsed = threadId.safeParse(id);
  if (!parsed.success) return { ok: false, error: "Chat not found." };
  const { userId, db } = await requireUser();
  try {
    await deleteThread(db, userId, parsed.data);
  } catch (error) {
    if (error instanceof ThreadNotFoundError) return { ok: false, error: error.message };
    throw error;
  }
  revalidatePath("/", "layout");
  return { ok: true };
}

export async function loadThreadsAction(cursor: string) {
  const parsed = z.string().max(500).safeParse(cursor);
  if (!parsed.success) return { threads: [], nextCursor: null };
  const { userId, db } = await requireUser();
  return listThreads(db, userId, { cursor: parsed.data });
}
