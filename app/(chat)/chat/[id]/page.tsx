import type { Metadata } from "next";
import { notFound } from "next/navigation";
import { currentPrincipal } from "@/app/(auth)/session";
import { ChatPage } from "@/components/chat/chat-page";
import { getThread, loadMessages } from "@/lib/chat/threads";
import { getDatabase } from "@/lib/db";

export const metadata: Metadata = { title: "Chat" };

export default async function ThreadPage({ params }: { params: Promise<{ id: string }> }) {
  const { id } = await params;
  const principal = await currentPrincipal();
  if (!principal || !/^[\w-]{1,100}$/.test(id)) notFound();
  const { db } = await getDatabase();
  const thread = await getThread(db, principal.userId, id);
  if (!thread) notFound();
  return <ChatPage key={id} threadId={id} messages={await loadMessages(db, principal.userId, id)} />;
}
