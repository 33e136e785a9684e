"use client";

import { Loader2, Upload } from "lucide-react";
import { useRouter } from "next/navigation";
import { useId, useState, useTransition } from "react";
import { importAction } from "@/app/(console)/memories/actions";
import { Alert } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import { Label } from "@/components/ui/label";
import type { ImportAction, ImportResult, ImportSummary } from "@/lib/console/import";

const ACTION_LABELS: Record<ImportAction, string> = {
  create: "will be created",
  unchanged: "already here, unchanged",
  conflict: "key taken by a different memory (kept)",
  purged: "purged, nothing to import",
  invalid: "invalid, skipped",
};

/** Pick a file → dry-run summary → apply. Nothing is written until "Import" is pressed on the summary. */
export function ImportPanel() {
  const router = useRouter();
  const inputId = useId();
  const [file, setFile] = useState<string | null>(null);
  const [result, setResult] = useState<ImportResult | null>(null);
  const [pending, startTransition] = useTransition();

  function run(apply: boolean) {
    if (file === null) return;
    startTransition(async () => {
      const outcome = await importAction({ file, apply });
      setResult(outcome);
      if (outcome.ok && outcome.outcome === "applied") router.refresh();
    });
  }

  return (
    <div className="space-y-4">
      <div className="space-y-1">
        <Label htmlFor={inputId}>Export file</Label>
        <input
          id={inputId}
          type="file"
          accept="application/json,.json"
          className="block w-full text-sm file:mr-3 file:rounded-md file:border file:bg-background file:px-3 file:py-1.5"
          onChange={async (event) => {
            const chosen = event.target.files?.[0];
            setResult(null);
            setFile(chosen ? await chosen.text() : null);
          }}
        />
      </div>
      <Button onClick={() => run(false)} disabled={file === null || pending} variant="outline">
        {pending ? <Loader2 className="size-4 animate-spin" aria-hidden /> : <Upload className="size-4" aria-hidden />}
        {pending ? "Checking…" : "Check file"}
      </Button>
      <div aria-live="polite" className="space-y-3">
        {result && !result.ok ? (
          <Alert tone="error">
            <p className="font-medium">{result.error.message}</p>
            {result.error.details.length ? (
              <ul className="mt-1 list-disc pl-5">
                {result.error.details.map((detail) => (
                  <li key={`${detail.path.join(".")}: ${detail.message}`}>
                    {detail.path.length > 1 ? `${detail.path.slice(1).join(".")}: ` : ""}
                    {detail.message}
                  </li>
                ))}
              </ul>
            ) : null}
          </Alert>
        ) : null}
        {result?.ok && result.outcome === "planned" ? (
          <div className="space-y-3" data-testid="import-summary">
            <Summary summary={result.summary} />
            <Button
              onClick={() => run(true)}
              disabled={pending || (result.summary.counts.create === 0 && result.summary.instructions !== "replace")}
            >
              {pending ? <Loader2 className="size-4 animate-spin" aria-hidden /> : null}
              {pending
                ? "Importing…"
                : `Import ${result.summary.counts.create} ${result.summary.counts.create === 1 ? "memory" : "memories"}`}
            </Button>
          </div>
        ) : null}
        {result?.ok && result.outcome === "applied" ? (
          <Alert data-testid="import-done">
            Imported {result.created} {result.created === 1 ? "memory" : "memories"}.
          </Alert>
        ) : null}
      </div>
    </div>
  );
}

function Summary({ summary }: { summary: ImportSummary }) {
  return (
    <div className="space-y-2 text-sm">
      <p className="font-medium">
        The file holds {summary.total} {summary.total === 1 ? "memory" : "memories"}. Nothing has been written yet.
      </p>
      <ul className="space-y-0.5">
        {(Object.keys(ACTION_LABELS) as ImportAction[])
          .filter((action) => summary.counts[action] > 0)
          .map((action) => (
            <li key={action}>
              <strong>{summary.counts[action]}</strong> {ACTION_LABELS[action]}
            </li>
          ))}
        {summary.instructions ? (
          <li>
            Instructions:{" "}
            {summary.instructions === "replace" ? "become a new version of yours" : "the same as yours, left alone"}
          </li>
        ) : null}
      </ul>
      {summary.creating.length ? (
        <details>
          <summary className="cursor-pointer">To be created</summary>
          <ul className="mt-1 list-disc pl-5">
            {summary.creating.map((item) => (
              <li key={item.index}>
                {item.text}{" "}
                <span className="text-muted-foreground">
                  ({item.kind}
                  {item.status === "deleted" ? ", deleted" : ""})
                </span>
              </li>
            ))}
          </ul>
        </details>
      ) : null}
      {summary.skipped.length ? (
        <details>
          <summary className="cursor-pointer">Skipped</summary>
          <ul className="mt-1 list-disc pl-5">
            {summary.skipped.map((item) => (
              <li key={item.index}>
                {item.text || <em>no content</em>} — {item.message}
              </li>
            ))}
          </ul>
        </details>
      ) : null}
    </div>
  );
}
