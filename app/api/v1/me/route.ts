import { NextResponse } from "next/server";
import { callerRoute } from "@/lib/api/handler";

export const dynamic = "force-dynamic";

/** Who the session cookie or API key acts as. */
export const GET = callerRoute(async ({ caller: { principal } }) =>
  NextResponse.json({ userId: principal.userId, role: principal.role, root: principal.root }),
);
