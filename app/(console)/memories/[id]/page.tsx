import { ArrowLeft } from "lucide-react";
import type { Metadata } from "next";
import Link from "next/link";
import { notFound } from "next/navigation";
import { z } from "zod";
import { AdminBanner } from "@/components/console/admin-banner";
import { Badge, PinnedBadge, StatusBadge, ValidityBadge } from "@/components/console/badges";
import { EditMemory } from "@/components/console/edit-memory";
import { formatActor, formatDateTime, formatValidity } from "@/components/console/format";
import { HistoryPanel } from "@/components/console/history-panel";
import { PinButton } from "@/components/console/pin-button";
import { SourcePanel } from "@/components/console/source-panel";
import { StatusActions } from "@/components/console/status-actions";
import { UsedIn } from "@/components/console/used-in";
import { loadSourceMessage } from "@/lib/console/source";
import { listMemoryUses } from "@/lib/console/usage";
import { MemoryNotFoundError } from "@/lib/memory/core";
import { getMemory, type Memory, memoryHistory, serializeMemory, serializeVersion } from "@/lib/memory/store";
import { loadScope } from "../scope";

export const metadata: Metadata = { title: "Memory" };

const searchSchema = z.object({ as: z.uuid().optional().catch(undefined) });

export default async function MemoryPage({
  params,
  searchParams,
}: {
  params: Promise<{ id: string }>;
  searchParams: Promise<Record<string, string | string[] | undefined>>;
}) {
  const { id } = await params;
  const { as } = searchSchema.parse(await searchParams);
  const scope = await loadScope(as, { action: "view_memory", target: id });
  const { ctx, owner, readOnly } = scope;
  let memory: Memory;
  try {
    memory = await getMemory(ctx, id);
  } catch (error) {
    if (error instanceof MemoryNotFoundError) notFound();
    throw error;
  }
  const [versions, uses, sourceMessage, folded] = await Promise.all([
    memoryHistory(ctx, memory.id),
    listMemoryUses(ctx, memory.id),
    loadSourceMessage(ctx, memory.source),
    // What was folded into it keeps its own words: shown here, so the merged memory carries every source.
    Promise.all(memory.mergedFrom.slice(0, MAX_FOLDED).map((from) => getMemory(ctx, from).catch(() => null))),
  ]);
  const json = serializeMemory(memory);
  const purged = memory.purgedAt !== null;
  const backHref = as ? `/memories?as=${as}` : "/memories";
  const ownerLabel = readOnly ? "the owner" : "You";
  const validity = formatValidity(json.validFrom, json.validTo);
  const superseded = memory.validTo !== null && memory.validTo.getTime() <= Date.now();

  return (
    <article className="space-y-6" aria-labelledby="memory-title">
      {readOnly ? <AdminBanner owner={owner} /> : null}
      <Link
        href={backHref}
        className="inline-flex items-center gap-1 text-muted-foreground text-sm hover:text-foreground"
      >
        <ArrowLeft className="size-4" aria-hidden /> All memories
      </Link>
      <header className="space-y-2">
        <h1 id="memory-title" className="break-words font-semibold text-2xl tracking-tight">
          {purged ? "Purged memory" : memory.text}
        </h1>
        <div className="flex flex-wrap items-center gap-2 text-muted-foreground text-sm">
          <Badge>{memory.kind}</Badge>
          <StatusBadge status={memory.status} purged={purged} />
          {memory.pinned ? <PinnedBadge /> : null}
          {validity ? <ValidityBadge label={validity} superseded={superseded} /> : null}
          <span>Version {memory.version}</span>
          <span>· last changed by {formatActor(memory.actor, owner.id, ownerLabel)}</span>
          <span>· {formatDateTime(memory.updatedAt)}</span>
          {memory.namespace.length ? <span className="font-mono">· {memory.namespace.join(".")}</span> : null}
          {memory.support > 1 ? <span data-testid="memory-support">· said {memory.support} times</span> : null}
        </div>
        <MergeLinks memory={memory} folded={folded.filter((entry) => entry !== null)} as={as} />
        {readOnly ? null : (
          <div className="flex flex-wrap gap-2">
            {memory.status === "active" ? <PinButton id={memory.id} pinned={memory.pinned} /> : null}
            <StatusActions id={memory.id} status={memory.status} purged={purged} />
          </div>
        )}
      </header>

      <Section title="Content">
        <EditMemory key={memory.version} memory={json} readOnly={readOnly} />
      </Section>
      <Section title="Source">
        <SourcePanel source={memory.source} message={sourceMessage} linkToChat={!readOnly} />
      </Section>
      <Section title={`History (${versions.length} ${versions.length === 1 ? "version" : "versions"})`}>
        <HistoryPanel
          memoryId={memory.id}
          versions={versions.map(serializeVersion)}
          currentVersion={memory.version}
          currentText={memory.text}
          ownerId={owner.id}
          ownerLabel={ownerLabel}
          canRevert={!readOnly && memory.status === "active"}
        />
      </Section>
      <Section title="Used in">
        <UsedIn uses={uses.uses} truncated={uses.truncated} linkToChat={!readOnly} />
      </Section>
    </article>
  );
}

function Section({ title, children }: { title: string; children: React.ReactNode }) {
  const id = `section-${title.split(" ")[0]?.toLowerCase()}`;
  return (
    <section aria-labelledby={id} className="space-y-3 rounded-xl border bg-card p-4 sm:p-5">
      <h2 id={id} className="font-semibold text-lg">
        {title}
      </h2>
      {children}
    </section>
  );
}

/** Memories folded into one shown on its page at most. */
const MAX_FOLDED = 50;

/** Where a consolidation run folded this memory, or what it folded into it, each with its own words. */
function MergeLinks({ memory, folded, as }: { memory: Memory; folded: Memory[]; as: string | undefined }) {
  const href = (id: string) => (as ? `/memories/${id}?as=${as}` : `/memories/${id}`);
  if (memory.mergedInto) {
    return (
      <p className="text-muted-foreground text-sm">
        Merged into{" "}
        <Link href={href(memory.mergedInto)} className="underline underline-offset-2">
          another memory
        </Link>{" "}
        by a tidy-up; kept here with its history and source.
      </p>
    );
  }
  if (folded.length === 0) return null;
  return (
    <div className="text-muted-foreground text-sm" data-testid="merged-from">
      <p>Also said as:</p>
      <ul className="list-disc pl-5">
        {folded.map((source) => (
          <li key={source.id}>
            <Link href={href(source.id)} className="underline underline-offset-2">
              {source.text}
            </Link>
            {source.source.quote ? <span> — “{source.source.quote}”</span> : null}
          </li>
        ))}
      </ul>
    </div>
  );
}
