"use client";

import { type NavTab, NavTabs } from "@/components/ui/nav-tabs";

const TABS: NavTab[] = [
  {
    href: "/memories",
    label: "Memories",
    match: (path) => path === "/memories" || /^\/memories\/[0-9a-f-]{36}$/.test(path),
  },
  { href: "/memories/runs", label: "Extraction runs", match: (path) => path.startsWith("/memories/runs") },
  { href: "/memories/transfer", label: "Export & import", match: (path) => path.startsWith("/memories/transfer") },
  { href: "/memories/access-log", label: "Access log", match: (path) => path.startsWith("/memories/access-log") },
];
const ADMIN: NavTab = { href: "/memories/admin", label: "Admin", match: (path) => path.startsWith("/memories/admin") };

export function ConsoleNav({ isAdmin }: { isAdmin: boolean }) {
  return (
    <NavTabs
      label="Memory console"
      tabs={isAdmin ? [...TABS, ADMIN] : TABS}
      className="-mx-1 mb-6 overflow-x-auto border-b pb-2"
    />
  );
}
