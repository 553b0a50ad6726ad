/** The agent API under `/agent-api` (wire types: @chat-widget/protocol agent-api.ts). */
import {
  AgentApiPath,
  type AcceptResponse,
  type AvailabilityRequest,
  type ChatsResponse,
  type ConnectionTokenResponse,
  type MeResponse,
  type QueueResponse,
  type SignInRequest,
  type SignInResponse,
} from "@chat-widget/protocol";
import type { FastifyInstance, FastifyRequest } from "fastify";
import { systemClock, type Clock } from "../clock.js";
import { isServiceError } from "../errors.js";
import { bearerToken } from "../http/bearer.js";
import { handleError } from "../http/errors.js";
import { rejectNulCharacters } from "../http/input-guard.js";
import { publicAdvisor, type AdvisorRecord } from "./advisors-repo.js";
import type { AgentEventsHub } from "./events.js";
import { availabilityBody, contactParams, signInBody } from "./schemas.js";
import type { AgentService } from "./service.js";
import type { LimitStore } from "../limits/limit-store.js";
import { SignInThrottle } from "./sign-in-throttle.js";

export interface AgentRoutesOptions {
  service: AgentService;
  hub: AgentEventsHub;
  /** The time source of the sign-in throttle (default: the system clock). */
  clock?: Clock;
  /** Where the sign-in throttle counts (default: this process's memory). */
  limits?: LimitStore;
}

type ContactRoute = { Params: { contactId: string } };

export async function agentRoutes(
  app: FastifyInstance,
  options: AgentRoutesOptions,
): Promise<void> {
  const { service, hub } = options;
  const throttle = new SignInThrottle({
    clock: options.clock ?? systemClock,
    ...(options.limits ? { store: options.limits } : {}),
  });
  app.setErrorHandler(handleError);
  rejectNulCharacters(app);
  const signedIn = async (request: FastifyRequest): Promise<AdvisorRecord> =>
    service.authenticate(bearerToken(request));

  app.post<{ Body: SignInRequest }>(
    AgentApiPath.SignIn,
    { schema: { body: signInBody } },
    async (request): Promise<SignInResponse> => {
      const { Username, Password } = request.body;
      try {
        // Refused here (429) when the account or address has failed too often: the
        // password is then not even checked.
        const attempt = await throttle.begin(Username, request.ip);
        try {
          const response = await service.signIn(Username, Password);
          await attempt.succeeded();
          return response;
        } catch (error) {
          // A wrong password (or unknown or disabled account) stays counted; anything else
          // (the store failing) says nothing about the password.
          if (!isServiceError(error) || error.type !== "AccessDeniedException")
            await attempt.abandoned();
          throw error;
        }
      } catch (error) {
        if (isServiceError(error) && error.retryAfterSeconds !== undefined)
          request.log.warn({ ip: request.ip }, "advisor sign-in throttled");
        throw error;
      }
    },
  );

  app.post(AgentApiPath.SignOut, async (request) => {
    const advisor = await signedIn(request);
    await service.signOut(advisor.AdvisorId, bearerToken(request)!);
    return {};
  });

  app.get(AgentApiPath.Me, async (request): Promise<MeResponse> => ({
    Advisor: publicAdvisor(await signedIn(request)),
  }));

  app.put<{ Body: AvailabilityRequest }>(
    AgentApiPath.Availability,
    { schema: { body: availabilityBody } },
    async (request): Promise<MeResponse> => {
      const advisor = await service.setAvailability(
        await signedIn(request),
        request.body.Availability,
      );
      return { Advisor: publicAdvisor(advisor) };
    },
  );

  app.get(AgentApiPath.Queue, async (request): Promise<QueueResponse> => {
    await signedIn(request);
    return { Contacts: await service.queue() };
  });

  app.get(AgentApiPath.Chats, async (request): Promise<ChatsResponse> => ({
    Chats: await service.chats((await signedIn(request)).AdvisorId),
  }));

  app.post<ContactRoute>(
    AgentApiPath.Accept,
    { schema: { params: contactParams } },
    async (request): Promise<AcceptResponse> =>
      service.accept(await signedIn(request), request.params.contactId),
  );

  app.post<ContactRoute>(
    AgentApiPath.ConnectionToken,
    { schema: { params: contactParams } },
    async (request): Promise<ConnectionTokenResponse> =>
      service.connectionToken(await signedIn(request), request.params.contactId),
  );

  app.post<ContactRoute>(
    AgentApiPath.End,
    { schema: { params: contactParams } },
    async (request) => {
      await service.end(await signedIn(request), request.params.contactId);
      return {};
    },
  );

  // The token comes in the Authorization header only: a URL ends up in logs and histories.
  app.get(AgentApiPath.Events, async (request, reply) => {
    const advisor = await service.authenticate(bearerToken(request));
    reply.hijack();
    await hub.add(advisor.AdvisorId, reply.raw);
  });
}
