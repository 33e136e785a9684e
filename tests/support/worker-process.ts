import { type ChildProcess, spawn } from "node:child_process";
import type { Database } from "@/lib/db/client";

export interface WorkerProcess {
  child: ChildProcess;
  /** Resolves once the worker has taken up the queue; rejects when it fails to start. */
  ready: Promise<void>;
  /** Resolves with the exit signal (or code) once the process is gone. */
  exited: Promise<NodeJS.Signals | number | null>;
  output(): string;
}

/** `npm run worker` as its own process, on the given PostgreSQL database. */
export function startWorkerProcess(database: Database, env: Record<string, string> = {}): WorkerProcess {
  if (database.connection.kind !== "postgres") throw new Error("standalone workers need PostgreSQL");
  // node itself, not npm: a SIGKILL must hit the worker, not a wrapper that leaves it running.
  const child = spawn(process.execPath, ["scripts/run-worker.mjs"], {
    env: {
      ...process.env,
      DATABASE_URL: database.connection.url,
      EXTRACTION_HEARTBEAT_SECONDS: "10",
      CHAT_MODEL: "",
      EXTRACTION_MODEL: "",
      ...env,
    },
    stdio: ["ignore", "pipe", "pipe"],
  });
  if (process.env.DEBUG_WORKERS) {
    child.stdout?.pipe(process.stdout);
    child.stderr?.pipe(process.stderr);
  }
  let output = "";
  child.stdout?.on("data", (chunk) => (output += chunk));
  child.stderr?.on("data", (chunk) => (output += chunk));
  const exited = new Promise<NodeJS.Signals | number | null>((resolve) =>
    child.on("exit", (code, signal) => resolve(signal ?? code)),
  );
  const ready = new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`worker did not start:\n${output}`)), 60_000);
    child.stdout?.on("data", () => {
      if (output.includes("extraction worker ready")) {
        clearTimeout(timer);
        resolve();
      }
    });
    child.on("exit", (code, signal) => {
      clearTimeout(timer);
      reject(new Error(`worker exited with ${signal ?? code}:\n${output}`));
    });
  });
  // A worker killed after it started has nobody awaiting `ready` any more.
  ready.catch(() => {});
  return { child, ready, exited, output: () => output };
}

/** Polls `probe` until it returns something truthy; fails saying `what` it waited for after `timeoutMs`. */
export async function until<T>(
  probe: () => Promise<T | undefined | false> | T | undefined | false,
  timeoutMs: number,
  what: string | (() => string) = "the condition",
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value) return value;
    if (Date.now() > deadline) {
      throw new Error(`timed out after ${timeoutMs} ms waiting for ${typeof what === "function" ? what() : what}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}
