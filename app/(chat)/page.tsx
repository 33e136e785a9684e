import { MessagesSquare } from "lucide-react";
import { EmptyState } from "@/components/shell/empty-state";

export default function ChatHome() {
  return (
    <EmptyState icon={MessagesSquare} title="No conversations yet">
      Chat with memory is not switched on in this build yet. Your session is ready, and what the assistant learns about
      you will be listed under Memories.
    </EmptyState>
  );
}
