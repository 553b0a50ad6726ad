import type { FastifyInstance } from "fastify";
import type { Clock } from "../clock.js";
import { CENTRE_CHANNEL, isCentreMessage } from "../contact-centre/channel.js";
import type { ServerDeps } from "../deps.js";
import type { ParticipantContext } from "./context.js";
import { registerParticipantCors } from "./cors.js";
import { RateLimiter } from "./rate-limit.js";
import { registerAttachmentFiles } from "./routes/attachment-files.js";
import { registerAttachments } from "./routes/attachments.js";
import { registerAuthentication } from "./routes/authentication.js";
import { registerConnection } from "./routes/connection.js";
import { registerDisconnect } from "./routes/disconnect.js";
import { registerEvent } from "./routes/event.js";
import { registerMessage } from "./routes/message.js";
import { registerTranscript } from "./routes/transcript.js";
import { registerViews } from "./routes/views.js";
import { SocketHub } from "./socket-hub.js";
import { readPage } from "../contact-centre/items-repo.js";
import { rejectUnstorableText } from "./text-guard.js";
import { registerWebsocket } from "./websocket.js";

export interface ParticipantServiceOptions {
  deps: ServerDeps;
  clock: Clock;
}

/**
 * The participant service, wire-compatible with Amazon Connect's (participant-protocol.md
 * §1, §3): every HTTP operation under /participant, the websocket, the attachment URLs.
 * Register it in its own scope (`app.register(participantService, options)`).
 */
export async function participantService(
  app: FastifyInstance,
  options: ParticipantServiceOptions,
): Promise<void> {
  const { deps, clock } = options;
  const ctx: ParticipantContext = {
    deps,
    clock,
    limiter: new RateLimiter(
      clock,
      deps.limits,
      deps.config.rateLimitBurst,
      deps.config.rateLimitPerSecond,
    ),
    callers: deps.callers,
  };
  const hub = new SocketHub({
    reads: {
      itemsAfter: (contactId, after, limit) =>
        readPage(deps.db, {
          contactId,
          direction: "FORWARD",
          from: { seq: after, inclusive: false },
          limit,
        }),
    },
    send: (socket, text) => ctx.deps.writes.send(socket, text),
    onRepaired: (count) => deps.repairs.repaired(count),
    onError: (error) => app.log.warn({ err: error }, "reading missed items failed"),
  });
  const unsubscribe = await deps.fanout.subscribe(CENTRE_CHANNEL, (message) => {
    if (isCentreMessage(message)) ctx.callers.hear(message, clock.now());
    hub.handle(message);
  });
  // The fan-out was interrupted: what it lost is read again (callers) or repaired (items).
  const stopResume = deps.fanout.onResume(() => {
    ctx.callers.clear();
    hub.resync();
  });
  // Its websockets are closed (1001) by the websocket plugin's preClose (app.ts).
  app.addHook("preClose", async () => {
    stopResume();
    await unsubscribe();
  });

  app.decorateRequest("participantCaller", null);
  registerParticipantCors(app);
  // Operations with optional bodies (connection, disconnect) may come without one.
  // A callback hook, not an async one: no promise per request (every request passes here).
  app.addHook("preValidation", (request, _reply, done) => {
    if (request.method === "POST" && request.body === undefined) request.body = {};
    done();
  });
  app.addHook("preValidation", rejectUnstorableText);
  registerConnection(app, ctx);
  registerMessage(app, ctx);
  registerEvent(app, ctx);
  registerTranscript(app, ctx);
  registerAttachments(app, ctx);
  registerDisconnect(app, ctx);
  registerViews(app, ctx);
  registerAuthentication(app, ctx);
  registerWebsocket(app, ctx, hub);
  await app.register(async (scope) => registerAttachmentFiles(scope, ctx));
}
