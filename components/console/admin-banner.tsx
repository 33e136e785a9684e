import { ShieldAlert } from "lucide-react";
import Link from "next/link";
import type { UserSummary } from "@/lib/console/users";

/** Shown on every page an admin opens in someone else's namespace. */
export function AdminBanner({ owner }: { owner: UserSummary }) {
  return (
    <div
      role="status"
      className="mb-4 flex flex-wrap items-center gap-2 rounded-md border border-primary/30 bg-accent px-3 py-2 text-accent-foreground text-sm"
      data-testid="admin-banner"
    >
      <ShieldAlert className="size-4" aria-hidden />
      <span>
        Admin access: viewing the memories of <strong>{owner.email ?? owner.name ?? owner.id}</strong>, read-only. Each
        view is recorded in their access log.
      </span>
      <Link href="/memories/admin" className="ml-auto underline underline-offset-2">
        Pick another user
      </Link>
    </div>
  );
}
