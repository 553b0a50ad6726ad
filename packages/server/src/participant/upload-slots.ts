import { Errors } from "../errors.js";

/**
 * Attachment uploads one process reads at once. Each holds about 2 MB while it streams (a chunk
 * being gathered, its base64 text, the driver's copy); past a handful, more at once only queue
 * in the store (every chunk is one write to one database) and in socket buffers, so 8 keeps
 * uploads near full speed with memory bounded whatever the number of clients. Not queued: an
 * upload beyond it is refused at once, and the client retries.
 */
export const MAX_CONCURRENT_UPLOADS = 8;
/** What a refused upload is told to wait: a 20 MB upload takes a second or two over a LAN. */
export const UPLOAD_RETRY_AFTER_SECONDS = 1;

export interface UploadSlots {
  /** Take a slot, or throw 503 ServiceUnavailableException with Retry-After. */
  acquire(): () => void;
  readonly inUse: number;
}

export function uploadSlots(max = MAX_CONCURRENT_UPLOADS): UploadSlots {
  let inUse = 0;
  return {
    acquire() {
      if (inUse >= max) {
        throw Errors.unavailable(
          `Too many attachment uploads are in progress (at most ${max} at once). Retry the upload after ${UPLOAD_RETRY_AFTER_SECONDS} s.`,
          UPLOAD_RETRY_AFTER_SECONDS,
        );
      }
      inUse++;
      let released = false;
      return () => {
        if (released) return;
        released = true;
        inUse--;
      };
    },
    get inUse() {
      return inUse;
    },
  };
}
