import { Errors } from "../errors.js";

/**
 * Attachment uploads one process reads at once. Each holds about 2 MB while it streams (a chunk
 * being gathered, its base64 text, the driver's copy); past a handful, more at once only queue
 * in the store (every chunk is one write to one database) and in socket buffers, so 8 keeps
 * uploads near full speed with memory bounded whatever the number of clients. Not queued: an
 * upload beyond it is refused at once, and the client retries.
 */
export const MAX_CONCURRENT_UPLOADS = 8;
/**
 * No one caller holds the slots (issue 57): eight slow PUTs to one upload URL held all 8 for
 * minutes. At most this many at once per upload URL (attachment), per chat, per client address.
 */
export const UPLOADS_PER_ATTACHMENT = 1;
export const UPLOADS_PER_CHAT = 2;
export const UPLOADS_PER_ADDRESS = 4;
/** What a refused upload is told to wait: a 20 MB upload takes a second or two over a LAN. */
export const UPLOAD_RETRY_AFTER_SECONDS = 1;

/** Whose upload it is: each is counted against its own limit. */
export interface UploadOwner {
  attachmentId: string;
  contactId: string;
  /** The client address (http/client-address.ts addressKey: an IPv6 client's /64). */
  address: string;
}

export interface UploadSlots {
  /** Take a slot, or throw 503 ServiceUnavailableException with Retry-After. */
  acquire(owner: UploadOwner): () => void;
  readonly inUse: number;
}

/** `refused` hears each upload turned away (for /metrics). */
export function uploadSlots(
  max = MAX_CONCURRENT_UPLOADS,
  refused: () => void = () => {},
): UploadSlots {
  let inUse = 0;
  const counts = new Map<string, number>();
  const held = (key: string) => counts.get(key) ?? 0;
  const add = (key: string, by: number) => {
    const n = held(key) + by;
    if (n === 0) counts.delete(key);
    else counts.set(key, n);
  };
  const refuse = (why: string) => {
    refused();
    return Errors.unavailable(
      `${why} Retry the upload after ${UPLOAD_RETRY_AFTER_SECONDS} s.`,
      UPLOAD_RETRY_AFTER_SECONDS,
    );
  };
  return {
    acquire(owner) {
      const keys = [
        `attachment ${owner.attachmentId}`,
        `chat ${owner.contactId}`,
        `address ${owner.address}`,
      ];
      if (held(keys[0]!) >= UPLOADS_PER_ATTACHMENT)
        throw refuse("This file is being uploaded already (one upload at a time per upload URL).");
      if (held(keys[1]!) >= UPLOADS_PER_CHAT)
        throw refuse(`This chat has ${UPLOADS_PER_CHAT} uploads in progress, the most at once.`);
      if (held(keys[2]!) >= UPLOADS_PER_ADDRESS)
        throw refuse(
          `This address has ${UPLOADS_PER_ADDRESS} uploads in progress, the most at once.`,
        );
      if (inUse >= max)
        throw refuse(`Too many attachment uploads are in progress (at most ${max} at once).`);
      inUse++;
      for (const key of keys) add(key, 1);
      let released = false;
      return () => {
        if (released) return;
        released = true;
        inUse--;
        for (const key of keys) add(key, -1);
      };
    },
    get inUse() {
      return inUse;
    },
  };
}
