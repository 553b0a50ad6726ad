import { afterEach, describe, expect, it } from "vitest";
import { preconnect } from "./preconnect.js";

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
