import { describe, expect, it } from "vitest";
import { blobSharedWorkerFactory } from "./blob-shared-worker.js";
import type { BlobWorkerHost } from "./blob-shared-worker.js";
import { fakeSharedWorker } from "./test-support/fake-shared-worker.js";
import type { SharedWorkerLike } from "./worker-connection.js";
import { TELEMETRY_WORKER_SOURCE } from "./worker-source.generated.js";

describe("the default SharedWorker (bundled script from a Blob URL)", () => {
  it("starts the bundled worker script from a Blob URL, named CSM_SharedWorker", async () => {
    const created: { url: string; name: string | undefined }[] = [];
    const blobs: Blob[] = [];
    class RecordingSharedWorker {
      constructor(url: string, options?: { name?: string }) {
        created.push({ url, name: options?.name });
        return fakeSharedWorker();
      }
    }
    const host: BlobWorkerHost = {
      SharedWorker: RecordingSharedWorker as unknown as new () => SharedWorkerLike,
      Blob,
      URL: {
        createObjectURL: (blob) => {
          blobs.push(blob);
          return `blob:http://shop.example/${blobs.length}`;
        },
      },
    };
    const factory = blobSharedWorkerFactory(host);
    expect(factory).toBeTypeOf("function");
    factory!();
    expect(created).toEqual([{ url: "blob:http://shop.example/1", name: "CSM_SharedWorker" }]);
    expect(blobs[0]!.type).toBe("text/javascript");
    const text = await blobs[0]!.text();
    expect(text.startsWith("try{URL.revokeObjectURL(self.location.href)}catch(e){}\n")).toBe(true);
    expect(text.endsWith(TELEMETRY_WORKER_SOURCE)).toBe(true);
  });

  it("gives no factory where the host has no SharedWorker (telemetry then runs in the page)", () => {
    expect(blobSharedWorkerFactory({ Blob, URL })).toBeUndefined();
    expect(blobSharedWorkerFactory({ SharedWorker: class {} as never, URL })).toBeUndefined();
    expect(
      blobSharedWorkerFactory({ SharedWorker: class {} as never, Blob, URL: {} as never }),
    ).toBeUndefined();
    expect(blobSharedWorkerFactory(globalThis as BlobWorkerHost)).toBeUndefined();
  });
});
