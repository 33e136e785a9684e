import { KIND_FORMS } from "@/lib/console/kind-fields";

/** A memory's content laid out for its kind: prose for plain memories, labelled fields for structured kinds. */
export function MemoryContent({ kind, content, text }: { kind: string; content: unknown; text: string }) {
  if (content === null || content === undefined) {
    return <p className="text-muted-foreground text-sm italic">Purged: the content was erased.</p>;
  }
  if (kind === "memory") {
    return <p className="whitespace-pre-wrap text-base leading-relaxed">{text}</p>;
  }
  if (kind === "triple") {
    const triple = content as { subject: string; predicate: string; object: string; context?: string };
    return (
      <p className="text-base">
        <strong>{triple.subject}</strong> <span className="text-muted-foreground">{triple.predicate}</span>{" "}
        <strong>{triple.object}</strong>
        {triple.context ? <span className="text-muted-foreground"> ({triple.context})</span> : null}
      </p>
    );
  }
  const form = KIND_FORMS[kind];
  const record = content as Record<string, unknown>;
  const entries = form
    ? form.fields
        .filter((field) => record[field.name] !== undefined)
        .map((field) => [field.label, record[field.name]] as const)
    : Object.entries(record);
  return (
    <dl className="grid grid-cols-1 gap-x-4 gap-y-2 text-sm sm:grid-cols-[max-content_1fr]">
      {entries.map(([label, value]) => (
        <div key={label} className="contents">
          <dt className="font-medium text-muted-foreground">{label}</dt>
          <dd className="whitespace-pre-wrap break-words">
            {typeof value === "string" ? value : JSON.stringify(value)}
          </dd>
        </div>
      ))}
    </dl>
  );
}
