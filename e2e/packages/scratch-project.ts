/**
 * A scratch project outside the repository that installs our packed tarballs as a developer
 * would (`npm pack`, then `npm install ./….tgz`), React from the npm cache. npm runs with none
 * of the `npm_*` variables of the `npm test` that started us, so it cannot mistake the
 * repository for the project.
 */
import { execFile } from "node:child_process";
import { mkdir, mkdtemp, readFile, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";

const run = promisify(execFile);
export const REPO = fileURLToPath(new URL("../../", import.meta.url));
export const PACKAGES = ["protocol", "chat-client", "widget"] as const;

export interface Packed {
  name: string;
  filename: string;
  files: string[];
}

function cleanEnv(): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [key, value] of Object.entries(process.env))
    if (!key.toLowerCase().startsWith("npm_")) env[key] = value;
  return env;
}

export async function npm(args: string[], cwd: string): Promise<string> {
  const { stdout } = await run("npm", args, { cwd, env: cleanEnv(), maxBuffer: 64 << 20 });
  return stdout;
}

/** Run a file with Node in `cwd`; its standard output. */
export async function node(args: string[], cwd: string): Promise<string> {
  const { stdout } = await run(process.execPath, args, { cwd, env: cleanEnv() });
  return stdout;
}

/** The version of a package the repository has installed (so npm finds it in its cache). */
async function installedVersion(name: string): Promise<string> {
  const manifest = JSON.parse(
    await readFile(join(REPO, "node_modules", name, "package.json"), "utf8"),
  ) as { version: string };
  return manifest.version;
}

/** Pack the three packages and install them, with React, into a new project; its folder. */
export async function packAndInstall(): Promise<{ root: string; dir: string; packed: Packed[] }> {
  const root = await mkdtemp(join(tmpdir(), "chat-widget-packages-"));
  const json = await npm(
    [
      "pack",
      "--json",
      "--pack-destination",
      root,
      ...PACKAGES.flatMap((p) => ["--workspace", `packages/${p}`]),
    ],
    REPO,
  );
  const packed = (
    JSON.parse(json) as { name: string; filename: string; files: { path: string }[] }[]
  ).map(({ name, filename, files }) => ({ name, filename, files: files.map((f) => f.path) }));
  const dir = join(root, "app");
  await mkdir(dir);
  await writeFile(
    join(dir, "package.json"),
    JSON.stringify({ name: "shop", private: true, type: "module" }),
  );
  const react = ["react", "react-dom", "@types/react", "@types/react-dom"];
  const versions = await Promise.all(react.map(installedVersion));
  await npm(
    [
      "install",
      "--no-audit",
      "--no-fund",
      "--prefer-offline",
      ...packed.map((p) => join(root, p.filename)),
      ...react.map((name, i) => `${name}@${versions[i]}`),
    ],
    dir,
  );
  return { root, dir, packed };
}
