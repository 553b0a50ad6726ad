import { describe, expect, it, vi } from "vitest";
import type { StartChatResult } from "@chat-widget/protocol";
import { headStart } from "./head-start.js";

const chat = (id: string) =>
  ({ ContactId: id, ParticipantId: "p", ParticipantToken: `t-${id}` }) as StartChatResult;

describe("a chat begun before the app (issue 61)", () => {
  it("is taken once for its jwt; one begun for another jwt, or discarded, is dropped to be ended", async () => {
    let n = 0;
    const drop = vi.fn();
    const begun = headStart(() => Promise.resolve(chat(`c${++n}`)), drop);
    begun.begin("jwt-a");
    const taken = begun.take("jwt-a");
    expect(await taken).toMatchObject({ ContactId: "c1" });
    expect(begun.take("jwt-a")).toBeNull();
    expect(drop).not.toHaveBeenCalled();

    begun.begin("jwt-a");
    expect(begun.take("jwt-b")).toBeNull();
    expect(drop).toHaveBeenCalledTimes(1);
    expect(await drop.mock.calls[0]![0]).toMatchObject({ ContactId: "c2" });

    begun.begin(undefined);
    begun.discard();
    expect(drop).toHaveBeenCalledTimes(2);
    expect(await drop.mock.calls[1]![0]).toMatchObject({ ContactId: "c3" });
    // Nothing pending: nothing more to drop.
    begun.discard();
    expect(begun.take(undefined)).toBeNull();
    expect(drop).toHaveBeenCalledTimes(2);
  });
});
