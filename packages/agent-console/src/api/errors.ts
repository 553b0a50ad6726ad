/** Errors of the agent API, in the AWS error shape the contact centre answers with. */
import { ERROR_TYPE_HEADER, parseAwsErrorMessage, parseAwsErrorName } from "@chat-widget/protocol";

export class AgentApiError extends Error {
  constructor(
    readonly type: string,
    message: string,
    readonly status: number,
  ) {
    super(message);
    this.name = "AgentApiError";
  }
}

export async function toAgentApiError(response: Response): Promise<AgentApiError> {
  const body: unknown = await response.json().catch(() => ({}));
  const type = parseAwsErrorName(response.status, response.headers.get(ERROR_TYPE_HEADER), body);
  const message = parseAwsErrorMessage(body) || `The request failed (HTTP ${response.status}).`;
  return new AgentApiError(type, message, response.status);
}

/** A readable text for any thrown value: errors are shown to the advisor, never swallowed. */
export function errorText(error: unknown): string {
  if (error instanceof Error && error.message) return error.message;
  if (typeof error === "string") return error;
  if (error && typeof error === "object") {
    const e = error as { message?: unknown; type?: unknown; _debug?: { reason?: unknown } };
    if (typeof e.message === "string" && e.message) return e.message;
    if (typeof e._debug?.reason === "string") return e._debug.reason;
    if (typeof e.type === "string") return e.type;
  }
  return "Something went wrong.";
}
