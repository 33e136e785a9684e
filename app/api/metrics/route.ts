import { toErrorResponse } from "@/lib/api/errors";
import { mayReadMetrics } from "@/lib/api/metrics-access";
import { AppError } from "@/lib/errors";
import { startProcessTelemetry } from "@/lib/server/telemetry";

export const dynamic = "force-dynamic";

/** The process's metrics as Prometheus text (docs/observability.md), for METRICS_TOKEN or an admin's session. */
export async function GET(request: Request) {
  try {
    if (!(await mayReadMetrics(request))) {
      throw new AppError(
        "unauthorized",
        "Send `Authorization: Bearer` with the metrics token, or sign in as an admin.",
      );
    }
    return new Response(await startProcessTelemetry().prometheusText(), {
      headers: { "content-type": "text/plain; version=0.0.4; charset=utf-8", "cache-control": "no-store" },
    });
  } catch (error) {
    return toErrorResponse(error);
  }
}
