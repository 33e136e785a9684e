import type { Database } from "@/lib/db/client";
import { readWordNet } from "@/lib/text/wordnet";
import { readEnglishTables } from "./english";
import { warmWordLexemes } from "./word-lexemes";

/**
 * What a server does for search when it starts (lib/server/start.ts), so that no user's first question pays for it:
 * reads the word tables search and the offline reader consult, at once (about a second of the event loop, before the
 * first request), then stems every word a noun can stand for in the background.
 */
export async function warmSearch(database: Database): Promise<void> {
  readEnglishTables();
  readWordNet();
  await warmWordLexemes(database);
}
