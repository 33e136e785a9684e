import type { Metadata } from "next";
import { z } from "zod";
import { RulesEditor } from "@/components/console/rules-editor";
import { listRules } from "@/lib/memory/store";
import { loadScope } from "../scope";

export const metadata: Metadata = { title: "Rules" };

const searchSchema = z.object({ as: z.string().max(100).optional().catch(undefined) });

export default async function RulesPage({
  searchParams,
}: {
  searchParams: Promise<Record<string, string | string[] | undefined>>;
}) {
  const { as } = searchSchema.parse(await searchParams);
  const scope = await loadScope(as, { action: "view_rules" });
  const rules = await listRules(scope.ctx);
  return (
    <div className="space-y-4">
      <h1 className="font-semibold text-2xl tracking-tight">Rules</h1>
      <p className="text-muted-foreground text-sm">
        What the assistant must never remember about you. The chat and the background manager are shown these rules
        every time; your own edits in this console are never blocked by them.
      </p>
      <RulesEditor
        rules={rules.map((rule) => ({ id: rule.id, text: rule.text, terms: rule.terms }))}
        readOnly={scope.readOnly}
      />
    </div>
  );
}
