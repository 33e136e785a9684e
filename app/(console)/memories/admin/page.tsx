import { Users } from "lucide-react";
import type { Metadata } from "next";
import Link from "next/link";
import { notFound } from "next/navigation";
import { z } from "zod";
import { formatDateTime } from "@/components/console/format";
import { EmptyState } from "@/components/shell/empty-state";
import { Button } from "@/components/ui/button";
import { Input } from "@/components/ui/input";
import { listUsers } from "@/lib/console/users";
import { getDatabase } from "@/lib/db";
import { requirePrincipal } from "../scope";

export const metadata: Metadata = { title: "Admin: pick a user" };

const searchSchema = z.object({
  q: z.string().trim().max(200).optional().catch(undefined),
  cursor: z.string().max(500).optional().catch(undefined),
});

/** Admins pick whose memories to browse (read-only and audited). Everyone else gets a 404. */
export default async function AdminPage({
  searchParams,
}: {
  searchParams: Promise<Record<string, string | string[] | undefined>>;
}) {
  const principal = await requirePrincipal();
  if (principal.role !== "admin") notFound();
  const { q, cursor } = searchSchema.parse(await searchParams);
  const { users, nextCursor } = await listUsers(await getDatabase(), { search: q, cursor });
  return (
    <div className="space-y-4">
      <h1 className="font-semibold text-2xl tracking-tight">Browse a user's memories</h1>
      <p className="text-muted-foreground text-sm">
        Read-only. Every page you open in someone's namespace is recorded in their access log, which they can see.
      </p>
      <search>
        <form method="get" className="flex gap-2">
          <label htmlFor="user-search" className="sr-only">
            Search users by email, name or id
          </label>
          <Input id="user-search" name="q" type="search" defaultValue={q} placeholder="Email, name or user id" />
          <Button type="submit">Search</Button>
        </form>
      </search>
      {users.length === 0 ? (
        <EmptyState icon={Users} title="No users match">
          Try another email or name.
        </EmptyState>
      ) : (
        <ul className="divide-y rounded-xl border bg-card" data-testid="user-list">
          {users.map((user) => (
            <li key={user.id} className="flex flex-wrap items-center gap-2 p-3">
              <div className="min-w-0 flex-1">
                <div className="truncate font-medium">
                  {user.email ?? (user.isGuest ? "Guest" : (user.name ?? "No email"))}
                </div>
                <div className="truncate font-mono text-muted-foreground text-xs">{user.id}</div>
              </div>
              <span className="text-muted-foreground text-xs">
                {user.memoryCount} active · joined {formatDateTime(user.createdAt)}
              </span>
              <Button asChild size="sm" variant="outline">
                <Link href={`/memories?as=${user.id}`} aria-label={`View memories of ${user.email ?? user.id}`}>
                  View memories
                </Link>
              </Button>
            </li>
          ))}
        </ul>
      )}
      {nextCursor ? (
        <Button asChild variant="outline" size="sm">
          <Link href={`/memories/admin?${new URLSearchParams({ ...(q ? { q } : {}), cursor: nextCursor })}`}>
            Next page
          </Link>
        </Button>
      ) : null}
    </div>
  );
}
