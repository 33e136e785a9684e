import Link from "next/link";
import type { Principal } from "@/lib/auth/principal";
import { NavLinks } from "./nav-links";
import { ThemeToggle } from "./theme-toggle";
import { UserMenu } from "./user-menu";

/** The page frame; its layout reads who is signed in (null: nobody, no user menu). */
export function AppShell({ principal, children }: { principal: Principal | null; children: React.ReactNode }) {
  return (
    <div className="flex min-h-dvh flex-col">
      <header className="sticky top-0 z-40 border-b bg-background/90 backdrop-blur">
        <div className="mx-auto flex h-14 max-w-6xl items-center gap-2 px-3 sm:gap-4 sm:px-6">
          <Link href="/" className="flex items-center gap-2 font-semibold tracking-tight">
            <span aria-hidden className="grid size-7 place-items-center rounded-md bg-primary text-primary-foreground">
              M
            </span>
            <span className="hidden sm:inline">Memory Ledger</span>
          </Link>
          <NavLinks />
          <div className="ml-auto flex items-center gap-1">
            <ThemeToggle />
            {principal ? (
              <UserMenu
                userId={principal.userId}
                email={principal.email}
                name={principal.name}
                isGuest={principal.isGuest}
                role={principal.role}
              />
            ) : null}
          </div>
        </div>
      </header>
      <main className="mx-auto flex w-full max-w-6xl flex-1 flex-col px-3 py-6 sm:px-6">{children}</main>
    </div>
  );
}
