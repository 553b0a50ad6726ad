import { afterEach, describe, expect, it } from "vitest";
import { preconnect, preloadScript } from "./preconnect.js";

afterEach(() => {
  document.head.innerHTML = "";
});

const links = () =>
  [...document.head.querySelectorAll<HTMLLinkElement>('link[rel="preconnect"]')].map((l) => [
    l.getAttribute("href"),
    l.crossOrigin,
  ]);

describe("preconnect on intent (issue 61)", () => {
  it("links each other origin once, anonymously, and never the page's own", () => {
    const page = new URL(document.baseURI).origin;
    preconnect(document, [
      "https://chat.example.com/gateway",
      "https://chat.example.com:443/widget",
      "https://telemetry.example.com/t",
      `${page}/gateway`,
    ]);
    preconnect(document, ["https://chat.example.com"]);
    expect(links()).toEqual([
      ["https://chat.example.com", "anonymous"],
      ["https://telemetry.example.com", "anonymous"],
    ]);
  });
});

describe("a later script preloaded once a chat exists (issue 61)", () => {
  it("is linked once, as a script, with the page's nonce", () => {
    const url = "https://chat.example.com/widget/chat-views.js?v=abc";
    preloadScript(document, url, "n0nce");
    preloadScript(document, url, "n0nce");
    const linked = [...document.head.querySelectorAll<HTMLLinkElement>('link[rel="preload"]')];
    expect(linked.map((l) => [l.getAttribute("href"), l.getAttribute("as"), l.nonce])).toEqual([
      [url, "script", "n0nce"],
    ]);
  });

  it("carries no nonce where the page has none", () => {
    preloadScript(document, "https://chat.example.com/widget/chat-views.js");
    expect(document.head.querySelector("link")!.hasAttribute("nonce")).toBe(false);
  });
});
