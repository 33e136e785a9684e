import type { NextAuthConfig } from "next-auth";
import type { Role } from "@/lib/auth/principal";
import { describeErrorWithStack } from "@/lib/log";

declare module "next-auth" {
  interface Session {
    user: {
      id: string;
      role: Role;
      root: string[];
      isGuest: boolean;
      email: string | null;
      name: string | null;
      /** The user's row could not be read for this request (lib/auth/session.ts refuses to act on it). */
      unchecked: boolean;
    };
  }
  interface User {
    sessionGeneration?: number;
  }
}

declare module "@auth/core/jwt" {
  interface JWT {
    uid?: string;
    /** The user's session generation at sign-in; "sign out everywhere" bumps the row's, retiring this token. */
    generation?: number;
    role?: Role;
    root?: string[];
    isGuest?: boolean;
    unchecked?: boolean;
  }
}

/**
 * The part of the Auth.js configuration that needs no database; ./authjs.ts adds the providers and the `jwt` callback
 * that checks every session against the user's row.
 */
export const authConfig = {
  pages: { signIn: "/login" },
  session: { strategy: "jwt", maxAge: 60 * 60 * 24 * 90 },
  trustHost: true,
  logger: {
    // A wrong password is an expected outcome shown to the user, not a server error worth a stack trace.
    error(error) {
      if ((error as { type?: string }).type === "CredentialsSignin") return;
      console.error(`auth: ${describeErrorWithStack(error)}`);
    },
  },
  providers: [],
  callbacks: {
    session({ session, token }) {
      if (token.uid) {
        session.user = {
          ...session.user,
          id: token.uid,
          // Filled from the user's row by the jwt callback on every request (lib/auth/session-validity.ts).
          role: token.role ?? "user",
          root: token.root ?? ["users", token.uid],
          isGuest: token.isGuest ?? false,
          email: token.email ?? null,
          name: token.name ?? null,
          unchecked: token.unchecked ?? false,
          // Auth.js types a session email as always present; guests have none.
        } as typeof session.user;
      }
      return session;
    },
  },
} satisfies NextAuthConfig;
