import { Inbox } from "lucide-react";
import type { Metadata } from "next";
import Link from "next/link";
import { z } from "zod";
import { ReviewQueue } from "@/components/console/review-queue";
import { EmptyState } from "@/components/shell/empty-state";
import { Button } from "@/components/ui/button";
import { loadReviewQueue } from "@/lib/console/review";
import { LIMITS, PROPOSAL_STATUSES } from "@/lib/memory/contract";
import { getSettings } from "@/lib/memory/review";
import { loadScope } from "../scope";

export const metadata: Metadata = { title: "Review" };

const searchSchema = z.object({
  status: z.enum(PROPOSAL_STATUSES).catch("pending").default("pending"),
  cursor: z.string().max(LIMITS.cursorChars).optional().catch(undefined),
  as: z.string().max(100).optional().catch(undefined),
});

export default async function ReviewPage({
  searchParams,
}: {
  searchParams: Promise<Record<string, string | string[] | undefined>>;
}) {
  const { status, cursor, as } = searchSchema.parse(await searchParams);
  const scope = await loadScope(as, { action: "view_review", details: { status } });
  const [{ items, nextCursor }, settings] = await Promise.all([
    loadReviewQueue(scope.ctx, { status, cursor }),
    getSettings(scope.ctx),
  ]);
  const href = (changes: Record<string, string | undefined>) => {
    const params = new URLSearchParams(
      Object.entries({ status, as, ...changes }).filter((entry): entry is [string, string] => Boolean(entry[1])),
    );
    return `/memories/review?${params}`;
  };
  return (
    <div className="space-y-4">
      <h1 className="font-semibold text-2xl tracking-tight">Review</h1>
      <p className="text-muted-foreground text-sm">
        Changes the assistant wants to make and that wait for your approval. Nothing here is remembered, recalled or
        searchable until you approve it; a rejected fact is not proposed again. Review mode is{" "}
        <strong>{settings.review}</strong> (
        <Link href="/settings" className="text-primary underline-offset-4 hover:underline">
          change
        </Link>
        ); your{" "}
        <Link href="/memories/rules" className="text-primary underline-offset-4 hover:underline">
          rules
        </Link>{" "}
        say what must never be remembered.
      </p>
      <nav aria-label="Filter by status" className="flex flex-wrap gap-1">
        {PROPOSAL_STATUSES.map((value) => (
          <Link
            key={value}
            href={href({ status: value, cursor: undefined })}
            aria-current={status === value ? "page" : undefined}
            className="rounded-full border px-3 py-1 text-sm aria-[current=page]:bg-muted aria-[current=page]:font-medium"
          >
            {value}
          </Link>
        ))}
      </nav>
      {items.length === 0 ? (
        <EmptyState icon={Inbox} title={status === "pending" ? "Nothing to review" : `No ${status} proposals`}>
          When review holds a change back, it appears here with the words it came from.
        </EmptyState>
      ) : (
        <ReviewQueue items={items} readOnly={scope.readOnly} />
      )}
      {nextCursor && (
        <Button asChild variant="outline">
          <Link href={href({ cursor: nextCursor })}>Older proposals</Link>
        </Button>
      )}
    </div>
  );
}
