import { and, eq } from "drizzle-orm";
import { messages, threads } from "@/lib/db/schema";
import { asUser, type UserBinding } from "@/lib/db/unit-of-work";

export interface SourceMessage {
  threadId: string;
  threadTitle: string | null;
  messageId: string;
  role: "user" | "assistant" | "system";
  text: string;
}

/** The message a memory was taken from, as plain text (its text parts joined), if the thread still exists. */
export async function loadSourceMessage(
  ctx: UserBinding,
  source: { threadId?: string; messageId?: string },
): Promise<SourceMessage | null> {
  const messageId = source.messageId;
  if (!messageId) return null;
  const userId = ctx.principal.userId;
  const [row] = await asUser(ctx, ({ db }) =>
    db
      .select({
        threadId: messages.threadId,
        threadTitle: threads.title,
        messageId: messages.id,
        role: messages.role,
        parts: messages.parts,
      })
      .from(messages)
      .innerJoin(threads, and(eq(threads.userId, messages.userId), eq(threads.id, messages.threadId)))
      .where(and(eq(messages.userId, userId), eq(messages.id, messageId)))
      .limit(1),
  );
  if (!row || (source.threadId && row.threadId !== source.threadId)) return null;
  return { ...row, text: messageText(row.parts) };
}

function messageText(parts: unknown[]): string {
  return parts
    .flatMap((part) => {
      const candidate = part as { type?: unknown; text?: unknown };
      return candidate.type === "text" && typeof candidate.text === "string" ? [candidate.text] : [];
    })
    .join("\n");
}

export interface HighlightSegment {
  text: string;
  marked: boolean;
}

const WHITESPACE = /\s/;

/**
 * `text` with each run of whitespace as one space and each character in the case a case-insensitive pattern
 * compares (its upper case, when that is one character); `offsets[i]` is where folded character i starts in `text`,
 * and `offsets[length]` is where the text ends.
 */
function fold(text: string): { text: string; offsets: number[] } {
  let folded = "";
  const offsets: number[] = [];
  for (let i = 0; i < text.length; i++) {
    const char = text[i]!;
    if (WHITESPACE.test(char)) {
      if (i > 0 && WHITESPACE.test(text[i - 1]!)) continue;
      folded += " ";
    } else {
      const upper = char.toUpperCase();
      folded += upper.length === 1 && !(char.charCodeAt(0) >= 128 && upper.charCodeAt(0) < 128) ? upper : char;
    }
    offsets.push(i);
  }
  offsets.push(text.length);
  return { text: folded, offsets };
}

/**
 * Splits `text` around the first occurrence of `quote` (exact, else ignoring case and runs of whitespace) so the
 * quoted span can be marked. Null when the quote is not in the text.
 */
export function highlightQuote(text: string, quote: string): HighlightSegment[] | null {
  const needle = quote.trim();
  if (!needle) return null;
  let start = text.indexOf(needle);
  let length = needle.length;
  if (start < 0) {
    // Both sides folded (case, runs of whitespace) with a map back to the text's offsets: a plain search, where a
    // pattern built from the quote would be a regular expression the ReDoS test cannot see.
    const folded = fold(text);
    const wanted = fold(needle).text;
    const at = folded.text.indexOf(wanted);
    if (at < 0) return null;
    start = folded.offsets[at]!;
    length = folded.offsets[at + wanted.length]! - start;
  }
  return [
    { text: text.slice(0, start), marked: false },
    { text: text.slice(start, start + length), marked: true },
    { text: text.slice(start + length), marked: false },
  ].filter((segment) => segment.text.length > 0);
}
