/** JSON schemas of the agent API bodies and parameters. */
import { ADVISOR_AVAILABILITIES } from "@chat-widget/protocol";

export const signInBody = {
  type: "object",
  required: ["Username", "Password"],
  additionalProperties: false,
  properties: {
    Username: { type: "string", minLength: 1, maxLength: 128 },
    Password: { type: "string", minLength: 1, maxLength: 1024 },
  },
} as const;

export const availabilityBody = {
  type: "object",
  required: ["Availability"],
  additionalProperties: false,
  properties: { Availability: { type: "string", enum: [...ADVISOR_AVAILABILITIES] } },
} as const;

export const contactParams = {
  type: "object",
  required: ["contactId"],
  properties: { contactId: { type: "string", minLength: 1, maxLength: 256 } },
} as const;
