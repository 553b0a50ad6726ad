/**
 * The packages as a developer gets them (issue 25): packed, installed from the tarballs into a
 * project of their own, imported from plain Node ESM (no window, document or customElements:
 * importing must not touch them), the React component rendered with react-dom/server, a
 * consumer file type-checked against the published types, the chatjs script-tag build run.
 */
import { readFile, rm, writeFile } from "node:fs/promises";
import { createRequire } from "node:module";
import { join } from "node:path";
import { runInNewContext } from "node:vm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { requireBuilds, WIDGET_BUILD } from "../support/contact-centre.js";
import { node, packAndInstall, REPO } from "./scratch-project.js";
import type { Packed } from "./scratch-project.js";

let root: string | undefined;
let dir: string;
let packed: Packed[];

beforeAll(async () => {
  requireBuilds([WIDGET_BUILD]);
  ({ root, dir, packed } = await packAndInstall());
}, 300_000);

afterAll(async () => {
  if (root) await rm(root, { recursive: true, force: true });
});

describe("the npm packages", () => {
  it("Each tarball holds its build, types, README, CHANGELOG and the Apache-2.0 licence, and no sources, tests or precompressed copies", async () => {
    expect(packed.map((p) => p.name).sort()).toEqual([
      "@chat-widget/chat-client",
      "@chat-widget/protocol",
      "@chat-widget/widget",
    ]);
    for (const { name, files } of packed) {
      expect(files, name).toEqual(
        expect.arrayContaining(["LICENSE", "README.md", "CHANGELOG.md", "package.json"]),
      );
      expect(
        files.filter((f) => /^src\/|\.test\.|\.(gz|br)$/.test(f)),
        name,
      ).toEqual([]);
      const manifest = JSON.parse(
        await readFile(join(dir, "node_modules", name, "package.json"), "utf8"),
      ) as { license: string; private?: boolean };
      expect(manifest.license).toBe("Apache-2.0");
      expect(manifest.private).toBeUndefined();
      expect(await readFile(join(dir, "node_modules", name, "LICENSE"), "utf8")).toContain(
        "Apache License",
      );
    }
    const widget = packed.find((p) => p.name === "@chat-widget/widget")!.files;
    expect(widget).toEqual(
      expect.arrayContaining([
        "lib/package/index.js",
        "lib/package/index.d.ts",
        "lib/package/element.js",
        "dist/chat-widget.js",
        "dist/chat-views.js",
        "dist/chat-telemetry.js",
        "dist/fonts/poppins-latin-500-normal.woff2",
        "dist/locales/fr.json",
      ]),
    );
  });

  it("Plain Node imports every entry without a browser, and react-dom/server renders ChatWidget as its empty host", async () => {
    await writeFile(
      join(dir, "ssr.mjs"),
      `import { createElement } from "react";
import { renderToString } from "react-dom/server";
import * as protocol from "@chat-widget/protocol";
import * as client from "@chat-widget/chat-client";
import * as widget from "@chat-widget/widget";
import * as element from "@chat-widget/widget/element";
const html = renderToString(createElement(widget.ChatWidget, { server: "https://chat.example.com", jwt: "a.b.c" }));
console.log(JSON.stringify({
  browser: [typeof window, typeof document, typeof customElements],
  protocol: Object.keys(protocol).length,
  client: ["ChatSession", "createWebSocketManager", "connect"].filter((k) => k in client),
  widget: Object.keys(widget).sort(),
  element: typeof element.defineChatWidgetElement,
  html,
}));
`,
    );
    const out = JSON.parse(await node(["ssr.mjs"], dir)) as Record<string, unknown>;
    expect(out).toEqual({
      browser: ["undefined", "undefined", "undefined"],
      protocol: expect.any(Number) as number,
      client: ["ChatSession", "createWebSocketManager", "connect"],
      widget: ["ChatWidget", "settingsFromOptions"],
      element: "function",
      html: '<div data-chat-widget=""></div>',
    });
    expect(out.protocol).toBeGreaterThan(5);
  });

  it("A consumer type-checks against the published types, and a wrong option is a type error", async () => {
    await writeFile(
      join(dir, "tsconfig.json"),
      JSON.stringify({
        compilerOptions: {
          target: "ES2022",
          module: "NodeNext",
          moduleResolution: "NodeNext",
          lib: ["ES2023", "DOM", "DOM.Iterable"],
          jsx: "react-jsx",
          strict: true,
          noEmit: true,
          skipLibCheck: false,
          types: [],
        },
        files: ["consumer.tsx"],
      }),
    );
    await writeFile(
      join(dir, "consumer.tsx"),
      `import { useRef, useState } from "react";
import { ChatSession } from "@chat-widget/chat-client";
import { LogLevel } from "@chat-widget/chat-client/browser";
import type {} from "@chat-widget/chat-client/script";
import { ContentType } from "@chat-widget/protocol";
import { ChatWidget } from "@chat-widget/widget";
import type { ChatWidgetApi, Entry } from "@chat-widget/widget";
import { defineChatWidgetElement } from "@chat-widget/widget/element";

export function Shop() {
  const chat = useRef<ChatWidgetApi>(null);
  const [unread, setUnread] = useState(0);
  const [last, setLast] = useState<Entry | null>(null);
  return (
    <>
      <button onClick={() => chat.current?.open()}>Help ({unread})</button>
      <ChatWidget ref={chat} server="https://chat.example.com" launcher="hidden" colorScheme="dark"
        onUnread={setUnread} onMessage={setLast} />
      {last && <p>{last.id}</p>}
      {/* @ts-expect-error: not a colour scheme */}
      <ChatWidget colorScheme="blue" />
    </>
  );
}

defineChatWidgetElement({ server: "https://chat.example.com", locale: "fr" });
const element = document.querySelector("chat-widget")!;
element.open();
const count: number = element.unreadCount;
element.addEventListener("chat-widget:unread", (event) => console.log(event.detail.count + count));
// @ts-expect-error: the count is read-only
element.unreadCount = 3;

const session = ChatSession.create({
  chatDetails: { ContactId: "c", ParticipantId: "p", ParticipantToken: "t" },
  type: "CUSTOMER",
});
void session.sendMessage({ message: "Hello", contentType: ContentType.TEXT_PLAIN });
// A chatjs page: the script tag's global connect, typed.
connect.ChatSession.setGlobalConfig({ region: "eu-west-2", loggerConfig: { level: LogLevel.WARN } });
`,
    );
    const tsc = join(REPO, "node_modules/typescript/bin/tsc");
    const result = await node([tsc, "-p", "tsconfig.json"], dir).then(
      (stdout) => ({ ok: true, stdout }),
      (error: { stdout?: string }) => ({ ok: false, stdout: error.stdout ?? String(error) }),
    );
    expect(result).toEqual({ ok: true, stdout: "" });
  });

  it("The chatjs script-tag build adds ChatSession, LogLevel and SessionTypes to the page's connect, keeping what it had", async () => {
    const require = createRequire(join(dir, "package.json"));
    const script = await readFile(require.resolve("@chat-widget/chat-client/script"), "utf8");
    const streams = { core: { initialized: true } };
    const page: { connect: Record<string, unknown> } = { connect: streams };
    runInNewContext(script, page);
    expect(page.connect).toBe(streams);
    expect(page.connect.core).toEqual({ initialized: true });
    const ChatSession = page.connect.ChatSession as { create: unknown; setGlobalConfig: unknown };
    expect(typeof ChatSession.create).toBe("function");
    expect(typeof ChatSession.setGlobalConfig).toBe("function");
    expect(page.connect.LogLevel).toMatchObject({ WARN: expect.anything() as unknown });

    // An element with id="connect" (DOM clobbering) is not the page's namespace: replaced.
    const element = { [Symbol.toStringTag]: "HTMLFormElement", ChatSession: "an input" };
    const clobbered: { connect: Record<string, unknown> } = { connect: element };
    runInNewContext(script, clobbered);
    expect(clobbered.connect).not.toBe(element);
    expect(typeof (clobbered.connect.ChatSession as { create: unknown }).create).toBe("function");
  });
});
