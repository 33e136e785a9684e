import { ChatSidebar } from "@/components/chat/chat-sidebar";
import { SidebarFrame } from "@/components/chat/sidebar-frame";
import { AppShell } from "@/components/shell/app-shell";

export default function ChatLayout({ children }: { children: React.ReactNode }) {
  return (
    <AppShell>
      <div className="flex min-h-0 flex-1 flex-col gap-4 md:flex-row md:gap-6">
        <SidebarFrame>
          <ChatSidebar />
        </SidebarFrame>
        <div className="flex min-w-0 flex-1 flex-col">{children}</div>
      </div>
    </AppShell>
  );
}
