import type { z } from "zod";
import type { Principal } from "@/lib/auth/principal";
import { type Database, getDatabase } from "@/lib/db";
import { type ActionResult, actionFailure, type Failure, parseInput } from "@/lib/errors";
import { asRequest } from "@/lib/log";
import type { MemoryContext } from "@/lib/memory/core";
import { memoryContextFor } from "@/lib/server/memory-context";
import { actionPrincipal } from "./caller";

/** What a session action acts with: always the signed-in person's own data, never anyone a request names. */
export interface ActionSession {
  principal: Principal;
  database: Database;
  /** The person's own namespace, as the console writes to it. */
  memory: MemoryContext;
}

/** What an action's caller receives when it was refused before or while it ran. */
export type ActionRefusal = { ok: false; error: Failure };

/**
 * An action's answer: the work's data as `{ ok: true, … }`, or the refusal. Work that settles its own result (an
 * object with `ok`, as the console's mutations do to hand back both versions of a conflict) answers that result; its
 * type has a `{ ok: false, error }` case (ActionResult's, MutationResult's), which the refusals take.
 */
export type SessionActionResult<R extends object> = R extends { ok: boolean } ? R : ActionResult<R>;

/**
 * The one wrapper for the server actions of the console and the chat. The action resolves the signed-in person
 * (`unauthorized` when signed out; each call counts against their per-user budget, see actionPrincipal), then parses
 * its one argument with `input` (`unprocessable` with every issue), then runs `work`. Expected failures (AppError)
 * come back as `{ ok: false, error }`; anything else propagates to the framework, as settleAction does.
 * A "use server" file exports the result (`export const saveAction = sessionAction(input, async (…) => …)`); `work`
 * is async there, as Next.js asks of every function an action file exports.
 */
export function sessionAction<Input, Parsed, R extends object>(
  input: z.ZodType<Parsed, Input>,
  work: (input: Parsed, session: ActionSession) => Promise<R>,
): (input: Input) => Promise<SessionActionResult<R>> {
  return async (raw) => asRequest(() => run(raw));

  async function run(raw: Input): Promise<SessionActionResult<R>> {
    try {
      const principal = await actionPrincipal();
      const parsed = parseInput(input, raw);
      const database = await getDatabase();
      const memory = await memoryContextFor(principal, "console", { database });
      const result = await work(parsed, { principal, database, memory });
      return ("ok" in result ? result : { ok: true, ...result }) as SessionActionResult<R>;
    } catch (error) {
      return actionFailure(error) as SessionActionResult<R>;
    }
  }
}
