"use client";

import Link from "next/link";
import { usePathname } from "next/navigation";
import { cn } from "@/lib/utils";

export interface NavTab {
  href: string;
  label: string;
  /** Whether the tab is the current page, given the pathname. */
  match: (path: string) => boolean;
  /** A count shown beside the label (e.g. pending proposals); hidden at 0. */
  count?: number;
}

/** A row of links that marks the current page (aria-current) for sighted and screen-reader users alike. */
export function NavTabs({ label, tabs, className }: { label: string; tabs: NavTab[]; className?: string }) {
  const pathname = usePathname();
  return (
    <nav aria-label={label} className={cn("flex gap-1", className)}>
      {tabs.map((tab) => {
        const active = tab.match(pathname);
        return (
          <Link
            key={tab.href}
            href={tab.href}
            aria-current={active ? "page" : undefined}
            className={cn(
              "shrink-0 rounded-md px-3 py-1.5 text-sm transition-colors hover:bg-muted",
              active ? "bg-muted font-medium text-foreground" : "text-muted-foreground",
            )}
          >
            {tab.label}
            {tab.count ? (
              <span className="ml-1.5 rounded-full bg-primary px-1.5 py-0.5 font-medium text-[0.7rem] text-primary-foreground">
                {tab.count}
                <span className="sr-only"> pending</span>
              </span>
            ) : null}
          </Link>
        );
      })}
    </nav>
  );
}
