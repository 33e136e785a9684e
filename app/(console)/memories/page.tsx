import { Brain, SearchX } from "lucide-react";
import type { Metadata } from "next";
import Link from "next/link";
import { AdminBanner } from "@/components/console/admin-banner";
import { MemoryFilters } from "@/components/console/memory-filters";
import { MemoryHealthCard } from "@/components/console/memory-health-card";
import { MemoryTable } from "@/components/console/memory-table";
import { EmptyState } from "@/components/shell/empty-state";
import { Button } from "@/components/ui/button";
import { listHref, parseListQuery } from "@/lib/console/list-query";
import { listConsoleMemories, SEARCH_LIMIT } from "@/lib/console/memory-list";
import { memoryHealth } from "@/lib/memory/consolidation";
import { defaultKinds } from "@/lib/memory/core";
import { embeddingBacklog, embeddingModelKey } from "@/lib/memory/search";
import { serializeMemory } from "@/lib/memory/store";
import { loadScope } from "./scope";

export const metadata: Metadata = { title: "Memories" };

type SearchParams = Promise<Record<string, string | string[] | undefined>>;

export default async function MemoriesPage({ searchParams }: { searchParams: SearchParams }) {
  const query = parseListQuery(await searchParams);
  const scope = await loadScope(query.as, {
    action: "view_memories",
    details: { query: Object.fromEntries(Object.entries(query).filter(([, value]) => value !== undefined)) },
  });
  const [listing, waitingForVectors, health] = await Promise.all([
    listConsoleMemories(scope.ctx, query),
    embeddingBacklog(scope.ctx),
    memoryHealth(scope.ctx),
  ]);
  const filtered = Boolean(
    query.q ||
      query.kind ||
      query.source ||
      query.namespace ||
      query.from ||
      query.to ||
      query.asOf ||
      query.pinned ||
      query.status !== "active",
  );
  if (listing.memories.length === 0 && !filtered && !query.cursor) {
    return (
      <>
        {scope.readOnly ? <AdminBanner owner={scope.owner} /> : null}
        <EmptyState icon={Brain} title="Nothing remembered yet">
          Memories saved in chat or through the API will appear here, each with where it came from and every change made
          to it.
        </EmptyState>
      </>
    );
  }
  const now = Date.now();
  const rows = listing.memories.map((memory) => ({
    ...serializeMemory(memory),
    purged: memory.purgedAt !== null,
    superseded: memory.validTo !== null && memory.validTo.getTime() <= now,
    score: memory.score,
  }));
  return (
    <div className="space-y-4">
      {scope.readOnly ? <AdminBanner owner={scope.owner} /> : null}
      <h1 className="font-semibold text-2xl tracking-tight">Memories</h1>
      <MemoryHealthCard health={health} readOnly={scope.readOnly} />
      {waitingForVectors > 0 && scope.ctx.embeddingModel ? (
        <p className="text-muted-foreground text-sm" role="status" data-testid="embedding-progress">
          Computing search vectors in the background: {waitingForVectors}{" "}
          {waitingForVectors === 1 ? "memory" : "memories"} left ({embeddingModelKey(scope.ctx.embeddingModel)}). Search
          finds them by their words meanwhile.
        </p>
      ) : null}
      <MemoryFilters query={query} kinds={(scope.ctx.kinds ?? defaultKinds).names()} />
      {query.asOf ? (
        <p className="text-muted-foreground text-sm" role="status" data-testid="as-of-notice">
          Facts that held on {query.asOf}, superseded ones included.
        </p>
      ) : null}
      {listing.mode === "search" ? (
        <p className="text-muted-foreground text-sm" role="status">
          {rows.length === 0
            ? "No memory matches this search."
            : `Best ${rows.length} ${rows.length === 1 ? "match" : "matches"} for “${query.q}”, ranked by relevance${rows.length === SEARCH_LIMIT ? " (refine the search to see others)" : ""}.`}
        </p>
      ) : null}
      {rows.length === 0 ? (
        <EmptyState icon={SearchX} title="No memories match">
          <Link href={listHref({ as: query.as }, {})} className="underline underline-offset-2">
            Clear the filters
          </Link>{" "}
          to see everything.
        </EmptyState>
      ) : (
        <MemoryTable rows={rows} readOnly={scope.readOnly} asUserId={query.as} />
      )}
      <nav aria-label="Pages" className="flex justify-between gap-2">
        {query.cursor ? (
          <Button asChild variant="outline" size="sm">
            <Link href={listHref(query, {})}>First page</Link>
          </Button>
        ) : (
          <span />
        )}
        {listing.nextCursor ? (
          <Button asChild variant="outline" size="sm">
            <Link href={listHref(query, { cursor: listing.nextCursor })}>Next page</Link>
          </Button>
        ) : null}
      </nav>
    </div>
  );
}
