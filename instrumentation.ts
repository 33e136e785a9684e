export async function register() {
  // biome-ignore lint/style/noProcessEnv: Next replaces NEXT_RUNTIME per bundle at build time, which drops the import below from the edge bundle; read through lib/config it would stay.
  if (process.env.NEXT_RUNTIME === "nodejs") {
    const { startServer } = await import("@/lib/server/start");
    await startServer();
  }
}
