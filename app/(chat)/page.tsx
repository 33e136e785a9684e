import { randomUUID } from "node:crypto";
import { ChatPage } from "@/components/chat/chat-page";

export const dynamic = "force-dynamic";

export default function NewChat() {
  return <ChatPage key="new" threadId={randomUUID()} messages={[]} />;
}
