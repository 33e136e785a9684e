import { Download } from "lucide-react";
import type { Metadata } from "next";
import { ImportPanel } from "@/components/console/import-panel";
import { Button } from "@/components/ui/button";
import { MAX_IMPORT_MEMORIES } from "@/lib/console/export-format";
import { requirePrincipal } from "../scope";

export const metadata: Metadata = { title: "Export & import" };

export default async function TransferPage() {
  await requirePrincipal();
  return (
    <div className="space-y-6">
      <h1 className="font-semibold text-2xl tracking-tight">Export & import</h1>
      <section aria-labelledby="export-title" className="space-y-3 rounded-xl border bg-card p-4 sm:p-5">
        <h2 id="export-title" className="font-semibold text-lg">
          Export
        </h2>
        <p className="text-muted-foreground text-sm">
          One JSON file with every memory in your namespace (active, deleted and purged) and every version of each.
        </p>
        <Button asChild>
          <a href="/memories/export" download>
            <Download className="size-4" aria-hidden /> Download export
          </a>
        </Button>
      </section>
      <section aria-labelledby="import-title" className="space-y-3 rounded-xl border bg-card p-4 sm:p-5">
        <h2 id="import-title" className="font-semibold text-lg">
          Import
        </h2>
        <p className="text-muted-foreground text-sm">
          Choose an export file (up to {MAX_IMPORT_MEMORIES.toLocaleString("en")} memories). You will see what it would
          change before anything is written. Memories whose key already exists here are left as they are.
        </p>
        <ImportPanel />
      </section>
    </div>
  );
}
