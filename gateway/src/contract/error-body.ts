import { Type } from "@sinclair/typebox";

export const ErrorBody = Type.Object(
  { error: Type.String({ description: "Human-readable message" }) },
  { additionalProperties: false },
);
