"use client";

import { type NavTab, NavTabs } from "@/components/ui/nav-tabs";

const TABS: NavTab[] = [
  {
    href: "/memories",
    label: "Memories",
    match: (path) => path === "/memories" || /^\/memories\/[0-9a-f-]{36}$/.test(path),
  },
  { href: "/memories/review", label: "Review", match: (path) => path.startsWith("/memories/review") },
  { href: "/memories/rules", label: "Rules", match: (path) => path.startsWith("/memories/rules") },
  {
    href: "/memories/instructions",
    label: "Instructions",
    match: (path) => path.startsWith("/memories/instructions"),
  },
  { href: "/memories/runs", label: "Extraction runs", match: (path) => path.startsWith("/memories/runs") },
  { href: "/memories/usage", label: "Usage & cost", match: (path) => path.startsWith("/memories/usage") },
  { href: "/memories/transfer", label: "Export & import", match: (path) => path.startsWith("/memories/transfer") },
  { href: "/memories/access-log", label: "Access log", match: (path) => path.startsWith("/memories/access-log") },
];
const ADMIN: NavTab[] = [
  { href: "/memories/admin", label: "Admin", match: (path) => path.startsWith("/memories/admin") },
  { href: "/memories/system", label: "System", match: (path) => path.startsWith("/memories/system") },
];

export function ConsoleNav({ isAdmin, pendingReview = 0 }: { isAdmin: boolean; pendingReview?: number }) {
  const tabs = TABS.map((tab) => (tab.href === "/memories/review" ? { ...tab, count: pendingReview } : tab));
  return (
    <NavTabs
      label="Memory console"
      tabs={isAdmin ? [...tabs, ...ADMIN] : tabs}
      className="-mx-1 mb-6 overflow-x-auto border-b pb-2"
    />
  );
}
