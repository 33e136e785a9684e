import "server-only";
import { notFound, redirect } from "next/navigation";
import type { Principal } from "@/lib/auth/principal";
import { currentPrincipal } from "@/lib/auth/session";
import type { AdminView } from "@/lib/console/audit";
import { type ConsoleScope, resolveScope } from "@/lib/console/scope";
import { getDatabase } from "@/lib/db";

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
