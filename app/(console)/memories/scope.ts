import "server-only";
import { notFound, redirect } from "next/navigation";
import { actionPrincipal } from "@/lib/api/caller";
import type { Principal } from "@/lib/auth/principal";
import { currentPrincipal } from "@/lib/auth/session";
import type { AdminView } from "@/lib/console/audit";
import { type ConsoleScope, resolveScope } from "@/lib/console/scope";
import { getDatabase } from "@/lib/db";
import { AppError } from "@/lib/errors";

export async function requirePrincipal(): Promise<Principal> {
  const principal = await currentPrincipal();
  if (!principal) redirect("/login?callbackUrl=%2Fmemories");
  return principal;
}

/**
 * The namespace a console page shows: the viewer's own, or (admins only) the user named by `as`, whose audit log
 * then records `view`; else 404.
 */
export async function loadScope(as: string | undefined, view: AdminView): Promise<ConsoleScope> {
  const principal = await requirePrincipal();
  const asUser = as === undefined ? undefined : { userId: as, view };
  const scope = await resolveScope(await getDatabase(), principal, asUser);
  if (!scope) notFound();
  return scope;
}

/**
 * The scope every mutation acts in: always the signed-in person's own namespace, never one named by the request.
 * Counted as one request of theirs (actionPrincipal); throws `unauthorized` or `rate_limited` as it does.
 */
export async function ownScope(): Promise<ConsoleScope> {
  const principal = await actionPrincipal();
  const scope = await resolveScope(await getDatabase(), principal, undefined);
  if (!scope) throw new AppError("unauthorized", "Your session has ended; sign in again.");
  return scope;
}
