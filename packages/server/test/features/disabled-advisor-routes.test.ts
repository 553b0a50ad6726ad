/**
 * Issue 60's agent routes refuse a disabled advisor: the visitor panel, earlier conversations,
 * the read-only transcript, notes, canned responses, history, tags, wrap-up and transfer's
 * targets each answer the advisor's token while
 * they are enabled, and once the admin disabled them the same token gets 403 (as their
 * websocket does, advisor-revocation.test.ts) — on the live chat they held and on an ended one
 * the team may read — with nothing read out and nothing stored.
 */
import {
  AgentApiPath,
  CannedApiPath,
  HistoryApiPath,
  NotesApiPath,
  TransferApiPath,
  WrapUpApiPath,
  VisitorApiPath,
  agentContactPath,
  cannedPath,
  type CannedResponse,
} from "@chat-widget/protocol";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { ENGINES } from "../support/databases.js";
import type { TestServer } from "../support/server.js";
import {
  addAdvisor,
  adminPost,
  heldBy,
  http,
  startFeatureServer,
  widgetCustomer,
  type Advisor,
} from "./helpers.js";

const ADMIN_TOKEN = "disabled-routes-admin-token-0123456789ab";

/** What a route's request names: the chats, the advisor's canned response, and the phase. */
interface Ids {
  live: string;
  ended: string;
  canned: string;
  phase: "enabled" | "disabled";
}

interface Route {
  name: string;
  method: "GET" | "POST" | "PUT" | "DELETE";
  path: (ids: Ids) => string;
  body?: (ids: Ids) => unknown;
}

const contact = (path: string, which: "live" | "ended") => (ids: Ids) =>
  agentContactPath(path, ids[which]);
const cannedEntry = (shortcut: string, body = `Text of ${shortcut}`) => ({
  Shortcut: shortcut,
  Title: `Title ${shortcut}`,
  Body: body,
});

const ROUTES: Route[] = [
  ...(["live", "ended"] as const).flatMap((which): Route[] => [
    { name: `GET visitor (${which})`, method: "GET", path: contact(VisitorApiPath.Visitor, which) },
    { name: `GET earlier (${which})`, method: "GET", path: contact(HistoryApiPath.Earlier, which) },
    {
      name: `GET transcript (${which})`,
      method: "GET",
      path: contact(HistoryApiPath.Transcript, which),
    },
    { name: `GET notes (${which})`, method: "GET", path: contact(NotesApiPath.Notes, which) },
    { name: `GET tags (${which})`, method: "GET", path: contact(WrapUpApiPath.Tags, which) },
  ]),
  { name: "GET history", method: "GET", path: () => HistoryApiPath.List },
  { name: "GET history advisors", method: "GET", path: () => HistoryApiPath.Advisors },
  { name: "GET tag suggestions", method: "GET", path: () => WrapUpApiPath.Suggestions },
  {
    name: "GET transfer targets (live)",
    method: "GET",
    path: contact(TransferApiPath.Targets, "live"),
  },
  {
    name: "PUT tags (ended)",
    method: "PUT",
    path: contact(WrapUpApiPath.Tags, "ended"),
    body: (ids) => ({ Tags: [`tag-${ids.phase}`] }),
  },
  {
    name: "PUT wrap-up (ended)",
    method: "PUT",
    path: contact(WrapUpApiPath.WrapUp, "ended"),
    body: (ids) => ({ Body: `wrap-up while ${ids.phase}` }),
  },
  {
    name: "POST notes (live)",
    method: "POST",
    path: contact(NotesApiPath.Notes, "live"),
    body: (ids) => ({ Body: `note while ${ids.phase}` }),
  },
  { name: "GET canned", method: "GET", path: () => CannedApiPath.List },
  {
    name: "POST canned",
    method: "POST",
    path: () => CannedApiPath.List,
    body: (ids) => cannedEntry(`made-${ids.phase}`),
  },
  {
    name: "PUT canned/:id",
    method: "PUT",
    path: (ids) => cannedPath(CannedApiPath.One, ids.canned),
    body: (ids) => cannedEntry(`own-${ids.phase}`, "changed"),
  },
  {
    name: "DELETE canned/:id",
    method: "DELETE",
    path: (ids) => cannedPath(CannedApiPath.One, ids.canned),
  },
];

const endedVisitor = ROUTES.find((r) => r.name === "GET visitor (ended)")!;

describe.each(ENGINES)("a disabled advisor's token on issue 60's routes (%s)", (engine) => {
  let server: TestServer;
  let robin: Advisor;
  let advisorId: string;
  /** The chats and one canned response of Robin's for each phase. */
  const ids = { live: "", ended: "", canned: { enabled: "", disabled: "" } };
  const opened: { close(): void }[] = [];

  const send = (route: Route, phase: Ids["phase"]) => {
    const named: Ids = { live: ids.live, ended: ids.ended, canned: ids.canned[phase], phase };
    return http<Record<string, unknown>>(server.url + route.path(named), {
      method: route.method,
      ...(route.body ? { body: route.body(named) } : {}),
      headers: { authorization: `Bearer ${robin.token}` },
    });
  };

  beforeAll(async () => {
    server = await startFeatureServer(engine, { ADMIN_TOKEN });
    robin = await addAdvisor(server, ADMIN_TOKEN, "robin", "Robin");
    expect((await robin.setAvailability("Available")).status).toBe(200);
    advisorId = (await robin.request<{ Advisor: { AdvisorId: string } }>(AgentApiPath.Me)).body
      .Advisor.AdvisorId;
    const chat = async () => {
      const customer = await widgetCustomer(server, null);
      opened.push(customer);
      await customer.say("Talk to an advisor");
      return (await heldBy(robin, customer)).customer.contactId;
    };
    ids.ended = await chat();
    expect((await robin.request(agentContactPath(AgentApiPath.End, ids.ended))).status).toBe(200);
    ids.live = await chat();
    for (const phase of ["enabled", "disabled"] as const) {
      const made = await robin.request<CannedResponse>(CannedApiPath.List, {
        body: cannedEntry(`own-${phase}`),
      });
      expect(made.status).toBe(200);
      ids.canned[phase] = made.body.CannedId;
    }
    // Once ended, the chat is the team's history: readable by any advisor.
    await vi.waitFor(async () => expect((await send(endedVisitor, "enabled")).status).toBe(200), {
      timeout: 15_000,
      interval: 50,
    });
  }, 60_000);
  afterAll(async () => {
    for (const o of opened.splice(0)) o.close();
    await server?.close();
  });

  it("while enabled, every route answers the advisor", async () => {
    for (const route of ROUTES) expect((await send(route, "enabled")).status, route.name).toBe(200);
  });

  describe("once the admin disabled them", () => {
    beforeAll(async () => {
      const disabled = await adminPost(server, ADMIN_TOKEN, "/admin-api/advisors/robin/disable");
      expect(disabled.status).toBe(200);
    });

    it.each(ROUTES)("refuses $name (403), saying nothing else", async (route) => {
      const r = await send(route, "disabled");
      expect(r.status).toBe(403);
      expect(r.body).toEqual({
        __type: "AccessDeniedException",
        message: "The session has expired or is not valid. Sign in again.",
      });
    });

    it("stored nothing for the refused writes", async () => {
      const db = server.built.deps.db;
      const notes = await db.query<{ body: string }>(
        "SELECT body FROM contact_notes WHERE contact_id = $1",
        [ids.live],
      );
      expect(notes.map((n) => n.body)).toEqual(["note while enabled"]);
      const canned = await db.query<{ shortcut: string; body: string }>(
        "SELECT shortcut, body FROM canned_responses WHERE advisor_id = $1 ORDER BY shortcut",
        [advisorId],
      );
      // While enabled: one made, the other changed, then deleted.
      expect(canned).toEqual([
        { shortcut: "made-enabled", body: "Text of made-enabled" },
        { shortcut: "own-disabled", body: "Text of own-disabled" },
      ]);
    });
  });
});
