"use client";

import { type NavTab, NavTabs } from "@/components/ui/nav-tabs";

const TABS: NavTab[] = [
  { href: "/", label: "Chat", match: (path) => path === "/" || path.startsWith("/chat") },
  { href: "/memories", label: "Memories", match: (path) => path.startsWith("/memories") },
];

export function NavLinks() {
  return <NavTabs label="Main" tabs={TABS} className="items-center" />;
}
