import { randomBytes } from "node:crypto";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { type Config, config } from "@/lib/config";

const DEV_SECRET_FILE = path.join(process.cwd(), ".data", "auth-secret");

export class MissingAuthSecretError extends Error {
  constructor() {
    super(
      "AUTH_SECRET is not set. Production needs a stable secret to sign sessions: " +
        'set AUTH_SECRET (for example `AUTH_SECRET="$(openssl rand -base64 32)"`) before `npm start`.',
    );
    this.name = "MissingAuthSecretError";
  }
}

/**
 * AUTH_SECRET; outside production, a random secret generated once into .data/ so that `npm run dev` works without an
 * env file and sessions survive restarts.
 */
export function resolveAuthSecret(settings: Config = config()): string {
  if (settings.AUTH_SECRET) return settings.AUTH_SECRET;
  if (settings.NODE_ENV === "production") throw new MissingAuthSecretError();
  if (!existsSync(DEV_SECRET_FILE)) {
    mkdirSync(path.dirname(DEV_SECRET_FILE), { recursive: true });
    writeFileSync(DEV_SECRET_FILE, randomBytes(32).toString("base64"), { mode: 0o600, flag: "wx" });
  }
  return readFileSync(DEV_SECRET_FILE, "utf8").trim();
}
