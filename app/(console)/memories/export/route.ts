import { errorResponse } from "@/lib/api/errors";
import { sessionLimiter } from "@/lib/api/rate-limit";
import { currentPrincipal } from "@/lib/auth/session";
import { exportNamespace } from "@/lib/console/export";
import { resolveScope } from "@/lib/console/scope";
import { getDatabase } from "@/lib/db";

export const dynamic = "force-dynamic";

/** Downloads the signed-in person's whole namespace with history. Session only: API keys never reach this route. */
export async function GET(): Promise<Response> {
  const principal = await currentPrincipal();
  const decision = principal
    ? await sessionLimiter.take(await getDatabase(), principal.userId)
    : { allowed: true as const };
  if (!decision.allowed) {
    return errorResponse("rate_limited", "Too many requests for this account; retry later.", {
      headers: { "retry-after": String(decision.retryAfterSeconds) },
    });
  }
  const scope = principal ? await resolveScope(await getDatabase(), principal, undefined) : null;
  if (!scope) {
    return Response.json({ error: { code: "unauthorized", message: "Sign in to export." } }, { status: 401 });
  }
  const chunks = exportNamespace(scope.ctx);
  const encoder = new TextEncoder();
  const body = new ReadableStream<Uint8Array>({
    async pull(controller) {
      const next = await chunks.next();
      if (next.done) controller.close();
      else controller.enqueue(encoder.encode(next.value));
    },
    async cancel() {
      await chunks.return(undefined);
    },
  });
  const day = scope.ctx.clock().toISOString().slice(0, 10);
  return new Response(body, {
    headers: {
      "content-type": "application/json; charset=utf-8",
      "content-disposition": `attachment; filename="memories-${day}.json"`,
      "cache-control": "no-store",
    },
  });
}
