import { ParticipantPath, type DescribeViewResponse } from "@chat-widget/protocol";
import type { FastifyInstance } from "fastify";
import { Errors } from "../../errors.js";
import { authHook, callerOf } from "../auth.js";
import type { ParticipantContext } from "../context.js";
import { viewParams } from "../schemas.js";
import { VIEWS } from "../views.js";

/** DescribeView: GET with the view token as one path segment; unknown → ResourceNotFoundException. */
export function registerViews(app: FastifyInstance, ctx: ParticipantContext): void {
  app.get<{ Params: { ViewToken: string } }>(
    `${ParticipantPath.DescribeView}/:ViewToken`,
    { preValidation: authHook(ctx, "connection"), schema: { params: viewParams } },
    async (request): Promise<DescribeViewResponse> => {
      callerOf(request);
      const token = request.params.ViewToken;
      const view = Object.hasOwn(VIEWS, token) ? VIEWS[token] : undefined;
      if (!view) throw Errors.notFound(`View ${token} was not found.`, token);
      return { View: view };
    },
  );
}
