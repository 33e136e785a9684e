"use client";

import Link from "next/link";
import { usePathname } from "next/navigation";
import { cn } from "@/lib/utils";

const LINKS = [
  {
    href: "/memories",
    label: "Memories",
    match: (path: string) => path === "/memories" || /^\/memories\/[0-9a-f-]{36}$/.test(path),
  },
  { href: "/memories/runs", label: "Extraction runs", match: (path: string) => path.startsWith("/memories/runs") },
  {
    href: "/memories/transfer",
    label: "Export & import",
    match: (path: string) => path.startsWith("/memories/transfer"),
  },
  {
    href: "/memories/access-log",
    label: "Access log",
    match: (path: string) => path.startsWith("/memories/access-log"),
  },
];
const ADMIN = { href: "/memories/admin", label: "Admin", match: (path: string) => path.startsWith("/memories/admin") };

export function ConsoleNav({ isAdmin }: { isAdmin: boolean }) {
  const pathname = usePathname();
  const links = isAdmin ? [...LINKS, ADMIN] : LINKS;
  return (
    <nav aria-label="Memory console" className="-mx-1 mb-6 flex gap-1 overflow-x-auto border-b pb-2">
      {links.map((link) => {
        const active = link.match(pathname);
        return (
          <Link
            key={link.href}
            href={link.href}
            aria-current={active ? "page" : undefined}
            className={cn(
              "shrink-0 rounded-md px-3 py-1.5 text-sm transition-colors hover:bg-muted",
              active ? "bg-muted font-medium text-foreground" : "text-muted-foreground",
            )}
          >
            {link.label}
          </Link>
        );
      })}
    </nav>
  );
}
