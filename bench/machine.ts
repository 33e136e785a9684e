import os from "node:os";

export interface Machine {
  cpus: number;
  cpuModel: string;
  memoryGiB: number;
  platform: string;
  node: string;
  databases: string[];
}

export function describeMachine(databases: string[]): Machine {
  return {
    cpus: os.availableParallelism(),
    cpuModel: os.cpus()[0]?.model ?? "unknown",
    memoryGiB: Math.round((os.totalmem() / 2 ** 30) * 10) / 10,
    platform: `${os.platform()} ${os.release()} ${os.arch()}`,
    node: process.version,
    databases,
  };
}
