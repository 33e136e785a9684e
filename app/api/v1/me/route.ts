import { NextResponse } from "next/server";
import { currentPrincipal } from "@/app/(auth)/session";
import { errorResponse } from "@/lib/api/errors";

export async function GET() {
  const principal = await currentPrincipal();
  if (!principal) return errorResponse("unauthorized", "Sign in or send an API key.");
  return NextResponse.json({ userId: principal.userId, role: principal.role, root: principal.root });
}
