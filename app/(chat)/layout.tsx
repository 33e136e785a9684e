import { ChatSidebar } from "@/components/chat/chat-sidebar";
import { SidebarFrame } from "@/components/chat/sidebar-frame";
import { AppShell } from "@/components/shell/app-shell";
import { currentPrincipal } from "@/lib/auth/session";
import { listThreads } from "@/lib/chat/threads";
import { getDatabase } from "@/lib/db";

export default async function ChatLayout({ children }: { children: React.ReactNode }) {
  const principal = await currentPrincipal();
  const threads = principal ? await listThreads({ database: await getDatabase(), principal }) : null;
  return (
    <AppShell principal={principal}>
      <div className="flex min-h-0 flex-1 flex-col gap-4 md:flex-row md:gap-6">
        <SidebarFrame>{threads ? <ChatSidebar page={threads} /> : null}</SidebarFrame>
        <div className="flex min-w-0 flex-1 flex-col">{children}</div>
      </div>
    </AppShell>
  );
}
