import { spawn, type ChildProcess } from "node:child_process";
import { fileURLToPath } from "node:url";

const SERVER_PACKAGE = fileURLToPath(new URL("../../", import.meta.url));

export interface ChildServer {
  url: string;
  child: ChildProcess;
  output(): string;
  stop(): Promise<void>;
}

/** `src/main.ts` in its own Node process (through tsx), on a free port; resolves once it listens. */
export function startChildServer(
  env: Record<string, string>,
  timeoutMs = 150_000,
): Promise<ChildServer> {
  const child = spawn(
    process.execPath,
    ["--conditions=@chat-widget/source", "--import", "tsx", "src/main.ts"],
    {
      cwd: SERVER_PACKAGE,
      env: { ...process.env, PORT: "0", HOST: "127.0.0.1", LOG_LEVEL: "info", ...env },
      stdio: ["ignore", "pipe", "pipe"],
    },
  );
  let output = "";
  const stop = async (): Promise<void> => {
    if (child.exitCode !== null || child.signalCode !== null) return;
    const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
    child.kill("SIGTERM");
    const timer = setTimeout(() => child.kill("SIGKILL"), 10_000);
    await exited;
    clearTimeout(timer);
  };
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      void stop();
      reject(new Error(`child server did not start:\n${output}`));
    }, timeoutMs);
    const onData = (chunk: Buffer): void => {
      output += chunk.toString();
      const match = /Contact centre ready: (?:demo shop|widget) (http:\/\/127\.0\.0\.1:\d+)\//.exec(
        output,
      );
      if (match) {
        clearTimeout(timer);
        resolve({ url: match[1]!, child, output: () => output, stop });
      }
    };
    child.stdout.on("data", onData);
    child.stderr.on("data", onData);
    child.once("exit", (code) => {
      clearTimeout(timer);
      reject(new Error(`child server exited with ${code}:\n${output}`));
    });
  });
}
