import type { ThreadPage } from "@/lib/chat/threads";
import { ThreadList } from "./thread-list";

/** The signed-in person's chats, as their layout read them (the first page; the list loads more itself). */
export function ChatSidebar({ page }: { page: ThreadPage }) {
  const threads = page.threads.map((thread) => ({ ...thread, updatedAt: thread.updatedAt.toISOString() }));
  return <ThreadList initial={threads} initialCursor={page.nextCursor} />;
}
