import { wordDiff } from "@/lib/console/diff";

/** Inline word diff: removals struck through, additions underlined, both labelled for screen readers. */
export function WordDiff({ before, after }: { before: string; after: string }) {
  const parts = wordDiff(before, after);
  return (
    <p className="whitespace-pre-wrap break-words rounded-md bg-muted/60 p-2 text-sm" data-testid="version-diff">
      {parts.map((part, index) => {
        if (part.type === "same") return <span key={index}>{part.text}</span>;
        if (part.type === "removed") {
          return (
            <del key={index} className="bg-destructive/15 text-destructive line-through decoration-destructive">
              <span className="sr-only">removed: </span>
              {part.text}
            </del>
          );
        }
        return (
          <ins key={index} className="bg-primary/15 text-foreground no-underline decoration-primary">
            <span className="sr-only">added: </span>
            {part.text}
          </ins>
        );
      })}
    </p>
  );
}
