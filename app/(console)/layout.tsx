import { AppShell } from "@/components/shell/app-shell";
import { currentPrincipal } from "@/lib/auth/session";

export default async function ConsoleLayout({ children }: { children: React.ReactNode }) {
  return <AppShell principal={await currentPrincipal()}>{children}</AppShell>;
}
