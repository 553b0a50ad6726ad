import { describe, expect, it } from "vitest";
import { mentionedUsernames } from "./mentions.js";

describe("mentions in a note", () => {
  it("are the usernames after an @ at a word's start, each once, trailing punctuation dropped", () => {
    expect(mentionedUsernames("@kim can you check? cc @sam.lee, thanks @kim.")).toEqual([
      "kim",
      "sam.lee",
    ]);
    expect(mentionedUsernames("@ana@example.com knows")).toEqual(["ana@example.com"]);
  });

  it("are not e-mail addresses or a lone @", () => {
    expect(mentionedUsernames("write to bob@example.com or @ now")).toEqual([]);
    expect(mentionedUsernames("")).toEqual([]);
  });
});
