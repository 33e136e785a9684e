import type { NextAuthConfig } from "next-auth";
import { type Role, roleFor } from "@/lib/auth/principal";
import { describeErrorWithStack } from "@/lib/log";

declare module "next-auth" {
  interface Session {
    user: { id: string; role: Role; root: string[]; isGuest: boolean; email: string | null; name: string | null };
  }
  interface User {
    role?: Role;
    isGuest?: boolean;
  }
}

declare module "@auth/core/jwt" {
  interface JWT {
    uid?: string;
    role?: Role;
    root?: string[];
    isGuest?: boolean;
  }
}

/**
 * The part of the Auth.js configuration that needs no database: the proxy uses it to read the session cookie,
 * auth.ts adds the providers.
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
          // Re-read on every request, so removing an address from ADMIN_EMAILS takes effect at once.
          role: roleFor(token.email),
          root: token.root ?? ["users", token.uid],
          isGuest: token.isGuest ?? false,
          email: token.email ?? null,
          name: token.name ?? null,
          // Auth.js types a session email as always present; guests have none.
        } as typeof session.user;
      }
      return session;
    },
  },
} satisfies NextAuthConfig;
