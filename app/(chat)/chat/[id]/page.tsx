import type { Metadata } from "next";
import { notFound } from "next/navigation";
import { ChatPage } from "@/components/chat/chat-page";
import { currentPrincipal } from "@/lib/auth/session";
import { getThread, loadMessages } from "@/lib/chat/threads";
import { getDatabase } from "@/lib/db";

export const metadata: Metadata = { title: "Chat" };

export default async function ThreadPage({ params }: { params: Promise<{ id: string }> }) {
  const { id } = await params;
  const principal = await currentPrincipal();
  if (!principal || !/^[\w-]{1,100}$/.test(id)) notFound();
  const user = { database: await getDatabase(), principal };
  const thread = await getThread(user, id);
  if (!thread) notFound();
  return <ChatPage key={id} threadId={id} messages={await loadMessages(user, id)} />;
}
