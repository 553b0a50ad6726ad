/**
 * The visitor panel's route (wire types: @chat-widget/protocol visitor.ts): who the visitor of
 * a chat is, from what the chat carries — its attributes with their sources, the browser,
 * system and language their browser named at start-chat — and the page and time zone the
 * widget last reported (page-route.ts).
 */
import { EMAIL_ATTRIBUTE, VisitorApiPath, type VisitorResponse } from "@chat-widget/protocol";
import type { FastifyInstance } from "fastify";
import { readableChat } from "../agents/chat-access.js";
import type { AdvisorRecord } from "../agents/advisors-repo.js";
import { contactParams } from "../agents/schemas.js";
import type { ContactCentre } from "../contact-centre/types.js";
import { bearerToken } from "../http/bearer.js";
import type { Db } from "../store/db.js";
import { describeBrowser, firstLanguage } from "./browser.js";
import { findVisitorContext } from "./context-repo.js";

export interface VisitorRoutesOptions {
  db: Db;
  centre: ContactCentre;
  /** The signed-in advisor of a bearer token (refuses a missing or unknown one with 403). */
  authenticate(token: string | undefined): Promise<AdvisorRecord>;
}

/** Registered in the agent API's scope (its error handler and input guards apply). */
export async function visitorRoutes(
  app: FastifyInstance,
  options: VisitorRoutesOptions,
): Promise<void> {
  const { db, centre } = options;
  app.get<{ Params: { contactId: string } }>(
    VisitorApiPath.Visitor,
    { schema: { params: contactParams } },
    async (request): Promise<VisitorResponse> => {
      const advisor = await options.authenticate(bearerToken(request));
      const contact = await readableChat(db, centre, advisor, request.params.contactId);
      const customer = (await centre.getParticipants(contact.contactId)).find(
        (p) => p.role === "CUSTOMER",
      );
      const context = await findVisitorContext(db, contact.contactId);
      const { browser, operatingSystem } = describeBrowser(context?.userAgent ?? "");
      const language = firstLanguage(context?.acceptLanguage ?? "");
      const email = contact.attributes[EMAIL_ATTRIBUTE]?.trim();
      return {
        ContactId: contact.contactId,
        Name: contact.attributes.customerName ?? customer?.displayName ?? "",
        ...(email ? { Email: email } : {}),
        Attributes: contact.attributes,
        AttributeSources: contact.attributeSources ?? {},
        StartedAt: contact.createdAt,
        ...(browser ? { Browser: browser } : {}),
        ...(operatingSystem ? { OperatingSystem: operatingSystem } : {}),
        ...(language ? { Language: language } : {}),
        ...(context?.timeZone ? { TimeZone: context.timeZone } : {}),
        ...(context?.page
          ? { Page: { Url: context.page.url, Title: context.page.title, At: context.page.at } }
          : {}),
      };
    },
  );
}
