/** One run of a word-level diff: text kept, added in the newer version, or removed from the older one. */
export interface DiffPart {
  type: "same" | "added" | "removed";
  text: string;
}

/** Above this many cells the LCS table is not built; the changed middle is shown as removed-then-added instead. */
const MAX_TABLE_CELLS = 4_000_000;

/** Words and the whitespace between them, so joining the tokens restores the text exactly. */
export function tokenize(text: string): string[] {
  return text.match(/\s+|[^\s]+/g) ?? [];
}

/**
 * Word-level diff of `before` → `after` by longest common subsequence over tokens. The common prefix and suffix
 * are trimmed first, so the table covers only the changed middle (usually a few words).
 */
export function wordDiff(before: string, after: string): DiffPart[] {
  const a = tokenize(before);
  const b = tokenize(after);
  let start = 0;
  while (start < a.length && start < b.length && a[start] === b[start]) start++;
  let endA = a.length;
  let endB = b.length;
  while (endA > start && endB > start && a[endA - 1] === b[endB - 1]) {
    endA--;
    endB--;
  }
  const parts: DiffPart[] = [];
  const push = (type: DiffPart["type"], text: string) => {
    if (!text) return;
    const last = parts.at(-1);
    if (last?.type === type) last.text += text;
    else parts.push({ type, text });
  };
  push("same", a.slice(0, start).join(""));
  for (const part of middleDiff(a.slice(start, endA), b.slice(start, endB))) push(part.type, part.text);
  push("same", a.slice(endA).join(""));
  return parts;
}

function middleDiff(a: string[], b: string[]): DiffPart[] {
  if (a.length === 0 || b.length === 0 || (a.length + 1) * (b.length + 1) > MAX_TABLE_CELLS) {
    return [
      { type: "removed", text: a.join("") },
      { type: "added", text: b.join("") },
    ];
  }
  const width = b.length + 1;
  // lcs[i * width + j] = length of the LCS of a[i..] and b[j..]
  const lcs = new Uint32Array((a.length + 1) * width);
  for (let i = a.length - 1; i >= 0; i--) {
    for (let j = b.length - 1; j >= 0; j--) {
      lcs[i * width + j] =
        a[i] === b[j]
          ? (lcs[(i + 1) * width + j + 1] as number) + 1
          : Math.max(lcs[(i + 1) * width + j] as number, lcs[i * width + j + 1] as number);
    }
  }
  const parts: DiffPart[] = [];
  let i = 0;
  let j = 0;
  while (i < a.length && j < b.length) {
    if (a[i] === b[j]) {
      parts.push({ type: "same", text: a[i++] as string });
      j++;
    } else if ((lcs[(i + 1) * width + j] as number) >= (lcs[i * width + j + 1] as number)) {
      parts.push({ type: "removed", text: a[i++] as string });
    } else {
      parts.push({ type: "added", text: b[j++] as string });
    }
  }
  while (i < a.length) parts.push({ type: "removed", text: a[i++] as string });
  while (j < b.length) parts.push({ type: "added", text: b[j++] as string });
  return parts;
}
