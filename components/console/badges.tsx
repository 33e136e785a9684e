import { cn } from "@/lib/utils";

export function Badge({ className, ...props }: React.ComponentProps<"span">) {
  return (
    <span
      className={cn("inline-flex items-center rounded-full border px-2 py-0.5 font-medium text-xs", className)}
      {...props}
    />
  );
}

export function StatusBadge({ status, purged }: { status: "active" | "deleted" | "merged"; purged?: boolean }) {
  if (purged) return <Badge className="border-destructive/40 text-destructive">Purged</Badge>;
  // Folded into another memory by a consolidation run: kept with its history, no longer recalled on its own.
  if (status === "merged") return <Badge className="text-muted-foreground">Merged</Badge>;
  return status === "deleted" ? (
    <Badge className="border-destructive/40 bg-destructive/10 text-destructive">Deleted</Badge>
  ) : (
    <Badge className="border-primary/30 bg-accent text-accent-foreground">Active</Badge>
  );
}

export function PinnedBadge() {
  return (
    <Badge className="border-primary/40 text-primary" title="Recalled into every chat turn" data-testid="pinned-badge">
      Pinned
    </Badge>
  );
}

/** A fact whose validTo has passed no longer holds: it was superseded, and stays for `asOf` searches. */
export function ValidityBadge({ label, superseded }: { label: string; superseded: boolean }) {
  return (
    <Badge
      className={cn(superseded ? "border-amber-500/40 text-amber-700 dark:text-amber-300" : "text-muted-foreground")}
      data-testid="validity-badge"
    >
      {superseded ? `Superseded · held ${label}` : `Holds ${label}`}
    </Badge>
  );
}
