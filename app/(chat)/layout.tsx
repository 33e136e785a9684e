import { AppShell } from "@/components/shell/app-shell";

export default function ChatLayout({ children }: { children: React.ReactNode }) {
  return <AppShell>{children}</AppShell>;
}
