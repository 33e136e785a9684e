import type * as React from "react";
import { cn } from "@/lib/utils";

const tones = {
  error: "border-destructive/40 bg-destructive/10 text-destructive",
  info: "border-primary/30 bg-accent text-accent-foreground",
} as const;

export function Alert({
  className,
  tone = "info",
  ...props
}: React.ComponentProps<"div"> & { tone?: keyof typeof tones }) {
  return (
    <div
      role={tone === "error" ? "alert" : "status"}
      className={cn("rounded-md border px-3 py-2 text-sm", tones[tone], className)}
      {...props}
    />
  );
}
