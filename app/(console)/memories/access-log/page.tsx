import { ShieldCheck } from "lucide-react";
import type { Metadata } from "next";
import Link from "next/link";
import { z } from "zod";
import { formatDateTime } from "@/components/console/format";
import { EmptyState } from "@/components/shell/empty-state";
import { Button } from "@/components/ui/button";
import { type AuditEntry, listAuditEntries } from "@/lib/console/audit";
import { getDatabase } from "@/lib/db";
import { LIMITS } from "@/lib/memory/contract";
import { requirePrincipal } from "../scope";

export const metadata: Metadata = { title: "Access log" };

const searchSchema = z.object({ cursor: z.string().max(LIMITS.cursorChars).optional().catch(undefined) });

const ACTIONS: Record<string, string> = {
  view_memories: "viewed your memory list",
  view_memory: "viewed a memory",
  view_review: "viewed your review queue",
  view_rules: "viewed your rules",
  view_instructions: "viewed your instructions",
};

function describeEntry(entry: AuditEntry): string {
  const who =
    entry.actorType === "admin" ? `Admin ${entry.actorId.slice(0, 8)}` : `API key ${entry.actorId.slice(0, 8)}`;
  return `${who} ${ACTIONS[entry.action] ?? entry.action.replaceAll("_", " ")}`;
}

/** Who other than you read your data: admins browsing your namespace, and your API keys. */
export default async function AccessLogPage({
  searchParams,
}: {
  searchParams: Promise<Record<string, string | string[] | undefined>>;
}) {
  const principal = await requirePrincipal();
  const { cursor } = searchSchema.parse(await searchParams);
  const { entries, nextCursor } = await listAuditEntries({ database: await getDatabase(), principal }, { cursor });
  return (
    <div className="space-y-4">
      <h1 className="font-semibold text-2xl tracking-tight">Access log</h1>
      <p className="text-muted-foreground text-sm">Every time an admin or one of your API keys read your memories.</p>
      {entries.length === 0 ? (
        <EmptyState icon={ShieldCheck} title="No one else has accessed your memories">
          Admin views and API key use will be listed here.
        </EmptyState>
      ) : (
        <ul className="divide-y rounded-xl border bg-card" data-testid="access-log">
          {entries.map((entry) => (
            <li key={entry.id} className="flex flex-wrap items-center gap-2 p-3 text-sm" data-testid="access-entry">
              <span className="rounded-full border px-2 py-0.5 font-medium text-xs">
                {entry.actorType === "admin" ? "Admin access" : "API key"}
              </span>
              <span className="flex-1">
                {describeEntry(entry)}
                {entry.action === "view_memory" && entry.target ? (
                  <>
                    {" "}
                    <Link href={`/memories/${entry.target}`} className="underline underline-offset-2">
                      (open it)
                    </Link>
                  </>
                ) : null}
              </span>
              <time dateTime={entry.createdAt.toISOString()} className="text-muted-foreground text-xs">
                {formatDateTime(entry.createdAt)}
              </time>
            </li>
          ))}
        </ul>
      )}
      {nextCursor ? (
        <Button asChild variant="outline" size="sm">
          <Link href={`/memories/access-log?cursor=${nextCursor}`}>Older entries</Link>
        </Button>
      ) : null}
    </div>
  );
}
