"use client";

import { Loader2, Pencil } from "lucide-react";
import { useRouter } from "next/navigation";
import { useState, useTransition } from "react";
import { editMemoryAction } from "@/app/(console)/memories/actions";
import { Alert } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import { contentFromValues, fieldErrorsOf, fieldValues } from "@/lib/console/kind-fields";
import type { MemoryJson } from "@/lib/memory/contract";
import { KindContentFields } from "./kind-content-fields";
import { MemoryContent } from "./memory-content";

/**
 * The memory's content with an edit form for its kind. Saving sends the version the form was opened at; if someone
 * saved in between, the server refuses and both versions are shown side by side.
 */
export function EditMemory({ memory, readOnly }: { memory: MemoryJson; readOnly: boolean }) {
  const router = useRouter();
  const [editing, setEditing] = useState(false);
  const [values, setValues] = useState(() => fieldValues(memory.kind, memory.content));
  const [expectedVersion, setExpectedVersion] = useState(memory.version);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [message, setMessage] = useState<string | null>(null);
  const [conflict, setConflict] = useState<MemoryJson | null>(null);
  const [pending, startTransition] = useTransition();
  const canEdit = !readOnly && memory.status === "active";

  function save(event?: React.FormEvent, version = expectedVersion) {
    event?.preventDefault();
    const parsed = contentFromValues(memory.kind, values);
    if (!parsed.ok) {
      setErrors(parsed.errors);
      return;
    }
    setErrors({});
    startTransition(async () => {
      const result = await editMemoryAction({ id: memory.id, expectedVersion: version, content: parsed.content });
      if (result.ok) {
        setConflict(null);
        setEditing(false);
        setMessage(null);
        router.refresh();
      } else if (result.theirs) {
        setConflict(result.theirs);
      } else {
        setErrors(fieldErrorsOf(result.error.details));
        setMessage(result.error.code === "not_found" ? "This memory no longer exists." : result.error.message);
      }
    });
  }

  function keepTheirs(theirs: MemoryJson) {
    setValues(fieldValues(theirs.kind, theirs.content));
    setExpectedVersion(theirs.version);
    setConflict(null);
    setEditing(false);
    router.refresh();
  }

  if (!editing) {
    return (
      <div className="space-y-3">
        <MemoryContent kind={memory.kind} content={memory.content} text={memory.text} />
        {canEdit ? (
          <Button variant="outline" size="sm" onClick={() => setEditing(true)}>
            <Pencil className="size-3.5" aria-hidden /> Edit
          </Button>
        ) : null}
      </div>
    );
  }

  if (conflict) {
    const yours = contentFromValues(memory.kind, values);
    return (
      <section aria-labelledby="conflict-title" className="space-y-3" data-testid="conflict-view">
        <Alert tone="error">
          <h3 id="conflict-title" className="font-semibold">
            Someone else changed this memory while you were editing
          </h3>
          It is now at version {conflict.version}; your edit was made on version {expectedVersion}. Nothing was
          overwritten. Choose which to keep.
        </Alert>
        <div className="grid gap-3 md:grid-cols-2">
          <div className="space-y-2 rounded-lg border p-3" data-testid="conflict-theirs">
            <h4 className="font-medium text-sm">Theirs (version {conflict.version})</h4>
            <MemoryContent kind={conflict.kind} content={conflict.content} text={conflict.text} />
            <Button size="sm" variant="outline" onClick={() => keepTheirs(conflict)} disabled={pending}>
              Keep theirs
            </Button>
          </div>
          <div className="space-y-2 rounded-lg border border-primary/40 p-3" data-testid="conflict-yours">
            <h4 className="font-medium text-sm">Yours (unsaved)</h4>
            {yours.ok ? (
              <MemoryContent kind={memory.kind} content={yours.content} text={renderPreview(yours.content)} />
            ) : null}
            <Button size="sm" onClick={() => save(undefined, conflict.version)} disabled={pending}>
              {pending ? <Loader2 className="size-4 animate-spin" aria-hidden /> : null}
              Save mine over theirs
            </Button>
          </div>
        </div>
      </section>
    );
  }

  return (
    <form onSubmit={save} className="space-y-3" aria-label="Edit memory" noValidate>
      <KindContentFields kind={memory.kind} values={values} errors={errors} onChange={setValues} />
      {message ? <Alert tone="error">{message}</Alert> : null}
      <div className="flex gap-2">
        <Button type="submit" disabled={pending}>
          {pending ? <Loader2 className="size-4 animate-spin" aria-hidden /> : null}
          {pending ? "Saving…" : "Save"}
        </Button>
        <Button
          type="button"
          variant="ghost"
          disabled={pending}
          onClick={() => {
            setEditing(false);
            setValues(fieldValues(memory.kind, memory.content));
            setErrors({});
            setMessage(null);
          }}
        >
          Cancel
        </Button>
      </div>
    </form>
  );
}

/** Plain memories display their text; the unsaved draft has no rendered text yet, so it is taken from the draft. */
function renderPreview(content: unknown): string {
  const record = content as { content?: unknown };
  return typeof record?.content === "string" ? record.content : "";
}
