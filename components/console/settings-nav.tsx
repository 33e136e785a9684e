"use client";

import { type NavTab, NavTabs } from "@/components/ui/nav-tabs";

const TABS: NavTab[] = [
  { href: "/settings/keys", label: "API keys", match: (path) => path.startsWith("/settings/keys") },
  { href: "/settings/webhooks", label: "Webhooks", match: (path) => path.startsWith("/settings/webhooks") },
];

/** The settings pages; a new one adds its tab here. */
export function SettingsNav() {
  return <NavTabs label="Settings" tabs={TABS} className="-mx-1 overflow-x-auto border-b pb-2" />;
}
