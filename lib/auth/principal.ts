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

export function roleFor(email: string | null | undefined, adminEmails = process.env.ADMIN_EMAILS ?? ""): Role {
  if (!email) return "user";
  const admins = adminEmails
    .split(",")
    .map((entry) => entry.trim().toLowerCase())
    .filter(Boolean);
  return admins.includes(email.toLowerCase()) ? "admin" : "user";
}
