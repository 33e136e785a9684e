import type { Metadata } from "next";
import { z } from "zod";
import { InstructionsEditor } from "@/components/console/instructions-editor";
import { InstructionsHistory } from "@/components/console/instructions-history";
import { listOptimizerRuns } from "@/lib/memory/optimizer";
import { instructionHistory } from "@/lib/memory/procedural";
import { loadScope } from "../scope";

export const metadata: Metadata = { title: "Instructions" };

const searchSchema = z.object({ as: z.string().max(100).optional().catch(undefined) });

export default async function InstructionsPage({
  searchParams,
}: {
  searchParams: Promise<Record<string, string | string[] | undefined>>;
}) {
  const { as } = searchSchema.parse(await searchParams);
  const scope = await loadScope(as, { action: "view_instructions" });
  const [versions, { runs, truncated }] = await Promise.all([
    instructionHistory(scope.ctx),
    listOptimizerRuns(scope.ctx, 10),
  ]);
  const current = versions[0];
  return (
    <div className="space-y-4">
      <h1 className="font-semibold text-2xl tracking-tight">Instructions</h1>
      <p className="text-muted-foreground text-sm">
        How the assistant should answer you, shown to it as your standing preferences in every chat. Edit them here, or
        rate answers in the chat: the optimizer reads your feedback and proposes changes (in Review, unless review is
        off).
      </p>
      <InstructionsEditor text={current?.text ?? ""} version={current?.version ?? 0} readOnly={scope.readOnly} />
      <InstructionsHistory
        versions={versions.map((version) => ({
          version: version.version,
          text: version.text,
          changedBy: version.changedBy,
          reason: version.reason,
          feedbackCount: version.feedbackIds.length,
          runId: version.runId,
          createdAt: version.createdAt.toISOString(),
        }))}
        runs={runs.map((run) => ({
          id: run.id,
          status: run.status,
          outcome: run.outcome,
          feedbackCount: run.feedbackIds.length,
          rejected: (run.rejected as Array<{ reason?: string }>).map((entry) => entry.reason ?? "").filter(Boolean),
          error: run.error,
          tokens: run.inputTokens === null ? null : run.inputTokens + (run.outputTokens ?? 0),
          createdAt: run.createdAt.toISOString(),
        }))}
        moreRuns={truncated}
        readOnly={scope.readOnly}
      />
    </div>
  );
}
