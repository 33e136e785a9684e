import { ValidationError } from "@/lib/errors";
import { LIMITS } from "./limits";

// The namespace rules callers meet, apart from the SQL over namespaces (lib/memory/core/namespace.ts), so the SDK can
// compile them in.

/** Checks a caller-supplied (relative) namespace and returns a copy. */
export function validateNamespace(segments: readonly unknown[], label = "namespace"): string[] {
  if (segments.length > LIMITS.namespaceDepth) {
    throw new ValidationError(`A ${label} has at most ${LIMITS.namespaceDepth} segments.`, [
      { path: [label], message: "too deep" },
    ]);
  }
  return segments.map((segment, index) => {
    const problem = segmentProblem(segment);
    if (problem) {
      throw new ValidationError(`Invalid ${label} segment ${index}: ${problem}.`, [
        { path: [label, index], message: problem },
      ]);
    }
    return segment as string;
  });
}

function segmentProblem(segment: unknown): string | undefined {
  if (typeof segment !== "string") return "segments are strings";
  if (segment.length === 0) return "segments are non-empty";
  if (segment.length > LIMITS.namespaceSegmentChars) {
    return `segments have at most ${LIMITS.namespaceSegmentChars} characters`;
  }
  if (segment.includes(".")) return 'segments cannot contain "."';
  return undefined;
}

/** `"a.b"` (the query-string form) → `["a", "b"]`; empty or absent → the root. */
export function parseDottedNamespace(value: string | null | undefined): string[] {
  if (!value) return [];
  return validateNamespace(value.split("."));
}
