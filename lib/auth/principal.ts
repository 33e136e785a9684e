import { config } from "@/lib/config";

export type Role = "user" | "admin";

/** Who a request acts as. Everything it reads or writes lives under `root`. */
export interface Principal {
  userId: string;
  role: Role;
  root: string[];
  isGuest: boolean;
  email: string | null;
  name: string | null;
}

export function namespaceRoot(userId: string): string[] {
  return ["users", userId];
}

/** What decides a user's role, read from their row on every session request (lib/auth/session-validity.ts). */
export interface RoleFacts {
  email: string | null;
  isAdmin: boolean;
  emailVerifiedAt: Date | null;
}

/**
 * Admin when the database flag says so (`npm run admin -- grant`), or when an OAuth provider verified an email that
 * ADMIN_EMAILS lists. An address someone merely registered never counts: anyone can type any address.
 */
export function roleOf(user: RoleFacts, adminEmails: readonly string[] = config().ADMIN_EMAILS): Role {
  if (user.isAdmin) return "admin";
  if (!user.email || !user.emailVerifiedAt) return "user";
  return adminEmails.includes(user.email.toLowerCase()) ? "admin" : "user";
}
