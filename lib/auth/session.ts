import "server-only";
import type { Principal } from "@/lib/auth/principal";
import { auth } from "./authjs";

/** The principal of the signed-in session, or null. The namespace root always comes from here, never from input. */
export async function currentPrincipal(): Promise<Principal | null> {
  const session = await auth();
  const user = session?.user;
  if (!user?.id) return null;
  return {
    userId: user.id,
    role: user.role,
    root: user.root,
    isGuest: user.isGuest,
    email: user.email,
    name: user.name,
  };
}
