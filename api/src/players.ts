import { ROLES } from "@pokerodds/common/roles";
import { FIRST_PERSONAL_TABLE_ID } from "@pokerodds/common/table-ids";
import { Type, type Static } from "@sinclair/typebox";
import { amount, nullable, playerId } from "./fields.js";
import { apiPart } from "./operation.js";

/** The roles a token may claim (common/roles.ts); any other counts as BASIC_USER. */
export { isRole, ROLES, type Role } from "@pokerodds/common/roles";

export const PlayerIdParam = playerId("The token's subject, unless the caller is an ADMIN (else 403)");

export const PlayerProfile = Type.Object(
  {
    playerId: Type.String({ description: "The identity provider's subject (sub)" }),
    username: Type.String({ description: "E-mail-style login name (email claim)" }),
    displayName: Type.String({ description: "The name claim" }),
    accountBalance: amount("Lobby wallet; a new player starts with 1,000"),
    avatarImageUrl: Type.String(),
    role: Type.Union([Type.Literal("UNSPECIFIED_DUE_TO_ERROR"), ...ROLES.map((role) => Type.Literal(role))]),
    isActive: Type.Boolean(),
    personalTableId: Type.Optional(
      Type.Integer({ minimum: FIRST_PERSONAL_TABLE_ID, description: "PAYING_USER and ADMIN only" }),
    ),
  },
  { additionalProperties: false },
);

export type PlayerProfileBody = Static<typeof PlayerProfile>;

export const PlayerSeats = Type.Object(
  {
    seats: Type.Array(
      Type.Object(
        {
          tableId: Type.Integer({ minimum: 1 }),
          seatId: Type.Integer({ description: "What a bet's seatIndex names" }),
          seatBalance: amount("Chips at this seat"),
        },
        { additionalProperties: false },
      ),
      { description: "In table id order; empty when the player sits nowhere" },
    ),
  },
  {
    additionalProperties: false,
    description: "The player's chips at seats: every seat, however long ago the table was played",
  },
);

export type PlayerSeatsBody = Static<typeof PlayerSeats>;

export const ACCOUNT_STATEMENT_DEFAULT_LIMIT = 20;
export const ACCOUNT_STATEMENT_MAX_LIMIT = 100;

const StatementEntry = Type.Object(
  {
    sequence: Type.Integer({ minimum: 1, description: "The account's entries are numbered 1, 2, 3... without gaps" }),
    at: Type.String({ format: "date-time", description: "When the money moved (or was refused)" }),
    kind: Type.Union(
      ["WELCOME", "DEBIT", "CREDIT", "DEPOSIT", "WITHDRAW"].map((kind) => Type.Literal(kind)),
      {
        description: "DEBIT and CREDIT are a table's: sit, top-up, leave, payout, refunds",
      },
    ),
    reason: Type.String({
      description:
        "welcome, sit, topup, leave, payout, void-refund, sit-refund, topup-refund; an operator's text for a deposit or withdrawal",
    }),
    amount: Type.Number({ description: "In units: positive for money in, negative for money out, 0 when refused" }),
    balanceAfter: amount("The account's balance after this entry"),
    applied: Type.Boolean({ description: "False for a movement refused (the balance did not change)" }),
    requested: amount("The amount asked for, whether applied or refused"),
    refusal: nullable(
      Type.Union([Type.Literal("INSUFFICIENT_FUNDS"), Type.Literal("BALANCE_LIMIT")]),
      "Why a movement was refused; null when applied",
    ),
    reference: Type.String({
      description:
        "What it belongs to: a game id (T3-17) for a payout or a void game's refund; the table's transfer id for a sit, top-up or leave",
    }),
    tableId: nullable(
      Type.Integer({ minimum: 1 }),
      "The table the money moved for (a sit, top-up, leave, payout or refund); null for the welcome credit, deposits and withdrawals",
    ),
  },
  { additionalProperties: false },
);

export const AccountStatement = Type.Object(
  {
    entries: Type.Array(StatementEntry, { description: "Newest first" }),
    nextBefore: nullable(
      Type.Integer({ minimum: 1 }),
      "Pass as `before` for the next, older page; null when this page reaches the account's first entry",
    ),
  },
  { additionalProperties: false, description: "The account's ledger, newest first, a page at a time" },
);

export type AccountStatementBody = Static<typeof AccountStatement>;

const PLAYER_ID = { name: "playerId", in: "path", required: true, schema: PlayerIdParam };

export const playersApi = apiPart(
  "players",
  { PlayerProfile, PlayerSeats, AccountStatement },
  {
    getPlayer: {
      method: "get",
      path: "/api/players/{playerId}",
      summary: "Profile; the first read creates the player and a 1,000 welcome balance",
      parameters: [PLAYER_ID],
      ok: "PlayerProfile",
      errors: [400, 403, 404, 503],
      example: {
        ok: {
          playerId: "alice",
          username: "alice@example.com",
          displayName: "Alice",
          accountBalance: 1000,
          avatarImageUrl: "/avatars/default.png",
          role: "BASIC_USER",
          isActive: true,
        },
      },
      links: {
        sit: {
          operationId: "sit",
          description: "Buy in at public table 1",
          parameters: { tableId: 1 },
          requestBody: { buyInAmount: 100 },
        },
      },
    },
    getPlayerSeats: {
      method: "get",
      path: "/api/players/{playerId}/seats",
      summary: "The player's seats at every table, with their chips (an extension of the spec)",
      parameters: [PLAYER_ID],
      ok: "PlayerSeats",
      errors: [400, 403, 503],
      example: { ok: { seats: [{ tableId: 3, seatId: 1, seatBalance: 150 }] } },
    },
    getAccountStatement: {
      method: "get",
      path: "/api/players/{playerId}/ledger",
      summary:
        "The account's statement: every movement of the lobby wallet, refused ones included, newest first (an extension of the spec); 404 before the first profile read",
      parameters: [
        PLAYER_ID,
        {
          name: "before",
          in: "query",
          required: false,
          description: "Only entries before this sequence number: a page's `nextBefore`. Absent: from the newest",
          schema: { type: "integer", minimum: 1 },
        },
        {
          name: "limit",
          in: "query",
          required: false,
          description: `Entries per page, 1 to ${ACCOUNT_STATEMENT_MAX_LIMIT} (default ${ACCOUNT_STATEMENT_DEFAULT_LIMIT})`,
          schema: { type: "integer", minimum: 1, maximum: ACCOUNT_STATEMENT_MAX_LIMIT },
        },
      ],
      ok: "AccountStatement",
      errors: [400, 403, 404, 503],
      example: {
        ok: {
          entries: [
            {
              sequence: 3,
              at: "2026-11-23T12:05:00.000Z",
              kind: "CREDIT",
              reason: "payout",
              amount: 12,
              balanceAfter: 912,
              applied: true,
              requested: 12,
              refusal: null,
              reference: "T3-17",
              tableId: 3,
            },
            {
              sequence: 2,
              at: "2026-11-23T12:00:00.000Z",
              kind: "DEBIT",
              reason: "sit",
              amount: -100,
              balanceAfter: 900,
              applied: true,
              requested: 100,
              refusal: null,
              reference: "tr-3f9c2a61d07b4e85a1c6f0d29b87e354a1c6f0d2",
              tableId: 3,
            },
          ],
          nextBefore: 2,
        },
      },
    },
  },
);
