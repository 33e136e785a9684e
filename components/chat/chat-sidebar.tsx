import { currentPrincipal } from "@/lib/auth/session";
import { listThreads } from "@/lib/chat/threads";
import { getDatabase } from "@/lib/db";
import { ThreadList } from "./thread-list";

export async function ChatSidebar() {
  const principal = await currentPrincipal();
  if (!principal) return null;
  const page = await listThreads({ database: await getDatabase(), principal });
  const threads = page.threads.map((thread) => ({ ...thread, updatedAt: thread.updatedAt.toISOString() }));
  return <ThreadList initial={threads} initialCursor={page.nextCursor} />;
}
