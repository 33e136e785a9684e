import Link from "next/link";

/** The memories an undo left as they are (changed since), each linked, with why: after a run's or a turn's undo. */
export function SkippedMemories({
  skipped,
  name = (memoryId) => memoryId.slice(0, 8),
  testId,
}: {
  skipped: ReadonlyArray<{ memoryId: string; reason: string }>;
  name?: (memoryId: string) => string;
  testId: string;
}) {
  if (skipped.length === 0) return null;
  return (
    <ul className="list-disc pl-5 text-muted-foreground text-xs" data-testid={testId}>
      {skipped.map((entry) => (
        <li key={entry.memoryId}>
          <Link href={`/memories/${entry.memoryId}`} className="hover:underline">
            {name(entry.memoryId)}
          </Link>
          : {entry.reason}
        </li>
      ))}
    </ul>
  );
}
