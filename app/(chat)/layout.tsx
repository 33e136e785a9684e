import { ChatSidebar } from "@/components/chat/chat-sidebar";
import { AppShell } from "@/components/shell/app-shell";

export default function ChatLayout({ children }: { children: React.ReactNode }) {
  return (
    <AppShell>
      <div className="flex min-h-0 flex-1 flex-col gap-4 md:flex-row md:gap-6">
        <details className="rounded-md border p-2 md:hidden">
          <summary className="cursor-pointer text-sm">Chats</summary>
          <div className="pt-2">
            <ChatSidebar />
          </div>
        </details>
        <aside className="hidden w-60 shrink-0 md:block">
          <div className="sticky top-20">
            <ChatSidebar />
          </div>
        </aside>
        <div className="flex min-w-0 flex-1 flex-col">{children}</div>
      </div>
    </AppShell>
  );
}
