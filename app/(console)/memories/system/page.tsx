import type { Metadata } from "next";
import { notFound } from "next/navigation";
import { formatCount, formatDateTime } from "@/components/console/format";
import { getDatabase } from "@/lib/db";
import { getJobQueue } from "@/lib/server/jobs";
import { systemStatus } from "@/lib/server/system-status";
import { requirePrincipal } from "../scope";

export const metadata: Metadata = { title: "System" };

const cell = "px-3 py-2";

function Section({ title, children }: { title: string; children: React.ReactNode }) {
  return (
    <section className="space-y-2" aria-label={title}>
      <h2 className="font-medium text-lg">{title}</h2>
      {children}
    </section>
  );
}

function Table({
  head,
  rows,
  testId,
  empty,
}: {
  head: string[];
  rows: React.ReactNode[][];
  testId: string;
  empty: string;
}) {
  if (rows.length === 0) return <p className="text-muted-foreground text-sm">{empty}</p>;
  return (
    <div className="overflow-x-auto rounded-xl border bg-card">
      <table className="w-full text-left text-sm" data-testid={testId}>
        <thead className="border-b text-muted-foreground text-xs">
          <tr>
            {head.map((label) => (
              <th key={label} className={`${cell} font-medium`}>
                {label}
              </th>
            ))}
          </tr>
        </thead>
        <tbody className="divide-y">
          {rows.map((row, index) => (
            <tr key={index}>
              {row.map((value, column) => (
                <td key={column} className={cell}>
                  {value}
                </td>
              ))}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

/**
 * What an on-call person looks at first (docs/observability.md): queues, the embedding backlog, failing runs and
 * their error classes, the latest problems this process logged. Admins only; everyone else gets a 404.
 */
export default async function SystemPage() {
  const principal = await requirePrincipal();
  if (principal.role !== "admin") notFound();
  const status = await systemStatus(await getDatabase(), await getJobQueue());
  return (
    <div className="space-y-6">
      <div className="space-y-1">
        <h1 className="font-semibold text-2xl tracking-tight">System</h1>
        <p className="text-muted-foreground text-sm">
          Across all users, counts and error classes only. Failed attempts and logged problems are this server process's
          latest; traces and metrics for every process go to the OpenTelemetry collector and /api/metrics.
        </p>
      </div>
      <Section title="Queues">
        <Table
          testId="system-queues"
          empty="No job is waiting or running."
          head={["Queue", "State", "Jobs"]}
          rows={status.queues.map((row) => [row.queue, row.state, formatCount(row.jobs)])}
        />
      </Section>
      <Section title="Embedding backlog">
        <p className="text-sm" data-testid="system-backlog">
          {status.embeddingBacklog === null
            ? "No embedding model is configured."
            : `${formatCount(status.embeddingBacklog)} ${status.embeddingBacklog === 1 ? "memory waits" : "memories wait"} for a vector.`}
        </p>
      </Section>
      <Section title="Failed runs, last 24 hours">
        <Table
          testId="system-failed-runs"
          empty="No run failed."
          head={["Kind", "Failed", "Latest"]}
          rows={status.failedRuns.map((row) => [
            row.kind,
            formatCount(row.failed),
            row.latest ? formatDateTime(row.latest) : "—",
          ])}
        />
        <Table
          testId="system-failure-classes"
          empty="No model call has failed in this process lately."
          head={["Where", "Error class", "HTTP status", "Attempts", "Latest"]}
          rows={status.failureClasses.map((row) => [
            row.context,
            row.error,
            row.status ?? "—",
            formatCount(row.attempts),
            formatDateTime(row.latest),
          ])}
        />
      </Section>
      <Section title="Recent problems">
        <Table
          testId="system-problems"
          empty="Nothing logged as a warning or an error in this process lately."
          head={["Time", "Level", "Message", "Trace"]}
          rows={status.problems.map((row) => [
            formatDateTime(row.time),
            row.level,
            <span key="msg" className="whitespace-pre-wrap break-words font-mono text-xs">
              {row.msg}
            </span>,
            row.trace_id ?? "—",
          ])}
        />
      </Section>
    </div>
  );
}
