"use client";

import { MessageSquarePlus, Pencil, Trash2 } from "lucide-react";
import Link from "next/link";
import { usePathname, useRouter } from "next/navigation";
import { useState, useTransition } from "react";
import { deleteThreadAction, loadThreadsAction, renameThreadAction } from "@/app/(chat)/actions";
import { Button } from "@/components/ui/button";
import { cn } from "@/lib/utils";

export interface ThreadSummary {
  id: string;
  title: string | null;
  updatedAt: string;
}

const DAY = 24 * 60 * 60 * 1000;

function groupOf(updatedAt: string, now: Date): string {
  const startOfToday = new Date(now.getFullYear(), now.getMonth(), now.getDate()).getTime();
  const time = new Date(updatedAt).getTime();
  if (time >= startOfToday) return "Today";
  if (time >= startOfToday - DAY) return "Yesterday";
  if (time >= startOfToday - 7 * DAY) return "Previous 7 days";
  if (time >= startOfToday - 30 * DAY) return "Previous 30 days";
  return "Older";
}

export function ThreadList({ initial, initialCursor }: { initial: ThreadSummary[]; initialCursor: string | null }) {
  const [extra, setExtra] = useState<ThreadSummary[]>([]);
  const [cursor, setCursor] = useState(initialCursor);
  const [loading, startLoading] = useTransition();
  const [loadError, setLoadError] = useState<string | null>(null);
  const threads = [...initial, ...extra.filter((thread) => !initial.some((t) => t.id === thread.id))];
  const now = new Date();
  const groups = new Map<string, ThreadSummary[]>();
  for (const thread of threads) {
    const group = groupOf(thread.updatedAt, now);
    groups.set(group, [...(groups.get(group) ?? []), thread]);
  }

  return (
    <nav aria-label="Chats" className="flex flex-col gap-3 text-sm">
      <Button asChild variant="outline" size="sm" className="justify-start">
        <Link href="/" prefetch={false}>
          <MessageSquarePlus className="size-4" aria-hidden /> New chat
        </Link>
      </Button>
      {threads.length === 0 ? <p className="px-2 text-muted-foreground text-xs">No chats yet.</p> : null}
      {[...groups].map(([group, items]) => (
        <section key={group}>
          <h2 className="px-2 pb-1 font-medium text-muted-foreground text-xs">{group}</h2>
          <ul className="space-y-0.5">
            {items.map((thread) => (
              <ThreadItem key={thread.id} thread={thread} />
            ))}
          </ul>
        </section>
      ))}
      {cursor ? (
        <Button
          variant="ghost"
          size="sm"
          disabled={loading}
          onClick={() =>
            startLoading(async () => {
              const page = await loadThreadsAction(cursor);
              if (!page.ok) return setLoadError(page.error.message);
              setLoadError(null);
              setExtra((previous) => [
                ...previous,
                ...page.threads.map((t) => ({ ...t, updatedAt: new Date(t.updatedAt).toISOString() })),
              ]);
              setCursor(page.nextCursor);
            })
          }
        >
          {loading ? "Loading…" : "Load more"}
        </Button>
      ) : null}
      {loadError ? (
        <p role="alert" className="px-2 text-destructive text-xs">
          {loadError}
        </p>
      ) : null}
    </nav>
  );
}

function ThreadItem({ thread }: { thread: ThreadSummary }) {
  const pathname = usePathname();
  const router = useRouter();
  const [pending, startTransition] = useTransition();
  const [error, setError] = useState<string | null>(null);
  const href = `/chat/${thread.id}`;
  const active = pathname === href;
  const label = thread.title ?? "Untitled chat";

  function rename() {
    const next = window.prompt("Rename chat", label);
    if (next === null) return;
    startTransition(async () => {
      const result = await renameThreadAction({ id: thread.id, title: next });
      setError(result.ok ? null : result.error.message);
    });
  }

  function remove() {
    if (!window.confirm(`Delete "${label}"? Its messages are removed; memories saved from it stay.`)) return;
    startTransition(async () => {
      const result = await deleteThreadAction(thread.id);
      if (!result.ok) return setError(result.error.message);
      if (active) router.push("/");
    });
  }

  return (
    <li>
      <div className={cn("group flex items-center gap-1 rounded-md pr-1", active ? "bg-muted" : "hover:bg-muted/60")}>
        <Link
          href={href}
          aria-current={active ? "page" : undefined}
          className={cn("min-w-0 flex-1 truncate px-2 py-1.5", pending && "opacity-50")}
        >
          {label}
        </Link>
        {[
          { action: "Rename", onClick: rename, Icon: Pencil, hover: "hover:text-foreground" },
          { action: "Delete", onClick: remove, Icon: Trash2, hover: "hover:text-destructive" },
        ].map(({ action, onClick, Icon, hover }) => (
          <button
            key={action}
            type="button"
            onClick={onClick}
            aria-label={`${action} ${label}`}
            className={cn(
              "rounded p-1 text-muted-foreground opacity-0 focus:opacity-100 group-hover:opacity-100",
              hover,
            )}
          >
            <Icon className="size-3.5" aria-hidden />
          </button>
        ))}
      </div>
      {error ? (
        <p role="alert" className="px-2 pb-1 text-destructive text-xs">
          {error}
        </p>
      ) : null}
    </li>
  );
}
