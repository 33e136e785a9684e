import "server-only";
import { cache } from "react";
import type { Principal } from "@/lib/auth/principal";
import { auth } from "./authjs";

/**
 * The principal of the signed-in session, or null. The namespace root always comes from here, never from input.
 * Auth.js's jwt callback has checked the cookie against the user's row (lib/auth/session-validity.ts): a deleted
 * account or a session signed out everywhere is null here; when the row could not be read, this throws (a 500, not a
 * sign-out). Cached per render, so the shell, the sidebar and the page
 * of one request share that one check; outside a render (route handlers, actions) each call checks.
 */
export const currentPrincipal = cache(async (): Promise<Principal | null> => {
  const session = await auth();
  const user = session?.user;
  if (!user?.id) return null;
  if (user.unchecked) throw new Error("The session could not be checked: the database did not answer.");
  return {
    userId: user.id,
    role: user.role,
    root: user.root,
    isGuest: user.isGuest,
    email: user.email,
    name: user.name,
  };
});
