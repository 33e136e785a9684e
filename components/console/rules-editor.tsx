"use client";

import { Trash2 } from "lucide-react";
import { useRouter } from "next/navigation";
import { useId, useState, useTransition } from "react";
import { addRuleAction, removeRuleAction } from "@/app/(console)/memories/review/actions";
import { Button } from "@/components/ui/button";
import { Input } from "@/components/ui/input";
import { Label } from "@/components/ui/label";

export interface RuleRow {
  id: string;
  text: string;
  terms: string[];
}

/** The user's rules, a form to add one and a delete button on each. */
export function RulesEditor({ rules, readOnly }: { rules: RuleRow[]; readOnly: boolean }) {
  const router = useRouter();
  const id = useId();
  const [text, setText] = useState("");
  const [terms, setTerms] = useState("");
  const [error, setError] = useState<string | null>(null);
  const [pending, startTransition] = useTransition();
  const run = (work: () => Promise<{ ok: boolean; error?: { message: string } }>, after?: () => void) =>
    startTransition(async () => {
      const result = await work();
      if (!result.ok) setError(result.error?.message ?? "That did not work.");
      else {
        setError(null);
        after?.();
        router.refresh();
      }
    });
  return (
    <div className="space-y-4">
      {!readOnly && (
        <form
          className="space-y-3 rounded-lg border p-3"
          onSubmit={(event) => {
            event.preventDefault();
            run(
              () => addRuleAction({ text, terms }),
              () => {
                setText("");
                setTerms("");
              },
            );
          }}
        >
          <div className="space-y-1">
            <Label htmlFor={`${id}-text`}>Rule</Label>
            <Input
              id={`${id}-text`}
              value={text}
              placeholder="Never remember anything about my health"
              onChange={(event) => setText(event.target.value)}
            />
          </div>
          <div className="space-y-1">
            <Label htmlFor={`${id}-terms`}>Words it covers (optional, comma-separated)</Label>
            <Input
              id={`${id}-terms`}
              value={terms}
              placeholder="health, diagnosis, medication"
              aria-describedby={`${id}-terms-help`}
              onChange={(event) => setTerms(event.target.value)}
            />
            <p id={`${id}-terms-help`} className="text-muted-foreground text-xs">
              A memory the assistant or an app tries to save with one of these words is refused, naming the rule. The
              assistant is shown every rule and also follows it by its meaning.
            </p>
          </div>
          <Button type="submit" disabled={pending || !text.trim()}>
            Add rule
          </Button>
        </form>
      )}
      {error && (
        <p role="alert" className="text-destructive text-sm">
          {error}
        </p>
      )}
      {rules.length === 0 ? (
        <p className="text-muted-foreground text-sm">No rules yet.</p>
      ) : (
        <ul className="divide-y rounded-lg border">
          {rules.map((rule) => (
            <li key={rule.id} className="flex items-start justify-between gap-3 p-3" data-testid="rule">
              <div className="space-y-1">
                <p className="text-sm">{rule.text}</p>
                {rule.terms.length > 0 && (
                  <p className="text-muted-foreground text-xs">Words: {rule.terms.join(", ")}</p>
                )}
              </div>
              {!readOnly && (
                <Button
                  size="sm"
                  variant="outline"
                  disabled={pending}
                  aria-label={`Delete rule: ${rule.text}`}
                  onClick={() => run(() => removeRuleAction(rule.id))}
                >
                  <Trash2 className="size-3.5" aria-hidden /> Delete
                </Button>
              )}
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}
