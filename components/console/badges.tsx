import { cn } from "@/lib/utils";

export function Badge({ className, ...props }: React.ComponentProps<"span">) {
  return (
    <span
      className={cn("inline-flex items-center rounded-full border px-2 py-0.5 font-medium text-xs", className)}
      {...props}
    />
  );
}

export function StatusBadge({ status, purged }: { status: "active" | "deleted"; purged?: boolean }) {
  if (purged) return <Badge className="border-destructive/40 text-destructive">Purged</Badge>;
  return status === "deleted" ? (
    <Badge className="border-destructive/40 bg-destructive/10 text-destructive">Deleted</Badge>
  ) : (
    <Badge className="border-primary/30 bg-accent text-accent-foreground">Active</Badge>
  );
}
