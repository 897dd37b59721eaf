// The query of GET /api/admin/games, checked before the table service is called: every value the
// contract's parameters admit is accepted (so a schema-driven client never gets a 400 for a valid
// value), anything else is a 400 naming the parameter. A repeated parameter is refused too, and
// http/mount.ts refuses an unknown one: a misspelt filter would otherwise export everything.
import { GAME_CURSOR_PATTERN } from "@pokerodds/api/game-records";
import { CANONICAL_ID } from "@pokerodds/api/fields";
import { INT32_MAX } from "@pokerodds/common/limits";
import type { ExportGamesRequest } from "@pokerodds/common/generated/pokerodds/table/v1/table";
import type { Request } from "express";
import { badRequest } from "../http/errors.js";

type ExportQuery = Omit<ExportGamesRequest, "caller">;

type Parameter = "tableId" | "finishedAfter" | "finishedBefore" | "after";

// RFC 3339's date-time (the contract's format): date, T, time with optional fraction, Z or an offset.
const DATE_TIME = /^(\d{4})-(\d{2})-(\d{2})[Tt](\d{2}):(\d{2}):(\d{2})(?:\.(\d+))?(?:[Zz]|([+-])(\d{2}):(\d{2}))$/;

/** The request's filters as ExportGames takes them, or a 400. */
export function exportQueryOf(req: Request): ExportQuery {
  // Only declared parameters get here (http/mount.ts refuses the others).
  const query = req.query as Record<string, unknown>;
  const one = (name: Parameter): string | undefined => {
    const value = query[name];
    if (value !== undefined && typeof value !== "string") throw badRequest(`${name} must be given at most once`);
    return value;
  };
  const tableId = one("tableId");
  const finishedAfter = one("finishedAfter");
  const finishedBefore = one("finishedBefore");
  const after = one("after");
  return {
    tableId: tableId === undefined ? 0 : parseTableIdQuery(tableId),
    finishedAfterMs: finishedAfter === undefined ? undefined : epochMsOf("finishedAfter", finishedAfter),
    finishedBeforeMs: finishedBefore === undefined ? undefined : epochMsOf("finishedBefore", finishedBefore),
    ...(after === undefined ? { afterTableId: 0, afterVersion: 0 } : parseCursor(after)),
  };
}

function parseTableIdQuery(text: string): number {
  const tableId = Number(text);
  if (!CANONICAL_ID.test(text) || tableId > INT32_MAX) {
    throw badRequest(`tableId must be an integer from 1 to ${INT32_MAX}, in plain decimal digits`);
  }
  return tableId;
}

/**
 * A record's cursor. Beyond the last table id or version there is nothing: such a cursor means
 * "after every game", said with the largest values the service takes.
 */
function parseCursor(text: string): Pick<ExportQuery, "afterTableId" | "afterVersion"> {
  const match = GAME_CURSOR_PATTERN.exec(text);
  if (!match) throw badRequest("after must be a record's cursor: <tableId>:<version>, in plain decimal digits");
  const tableId = Number(match[1]);
  const version = Number(match[2]);
  if (tableId > INT32_MAX) return { afterTableId: INT32_MAX, afterVersion: Number.MAX_SAFE_INTEGER };
  return { afterTableId: tableId, afterVersion: Math.min(version, Number.MAX_SAFE_INTEGER) };
}

const DAYS_IN_MONTH = [31, 29, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];
const isLeap = (year: number) => (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0;

/** An RFC 3339 date-time in epoch milliseconds (a leap second counts as the next second's start). */
function epochMsOf(name: Parameter, text: string): number {
  const match = DATE_TIME.exec(text);
  const field = (i: number) => Number(match?.[i] ?? 0);
  const [year, month, day, hour, minute, second] = [field(1), field(2), field(3), field(4), field(5), field(6)];
  const [offsetHours, offsetMinutes] = [field(9), field(10)];
  const offsetMinutesEast = (offsetHours * 60 + offsetMinutes) * (match?.[8] === "-" ? -1 : 1);
  const days = month === 2 && !isLeap(year) ? 28 : (DAYS_IN_MONTH[month - 1] ?? 0);
  // A leap second exists only at 23:59 UTC, as the contract's validator (ajv-formats) has it.
  const utcMinute = (((hour * 60 + minute - offsetMinutesEast) % 1440) + 1440) % 1440;
  const fits =
    day >= 1 && day <= days && hour <= 23 && minute <= 59 && (second <= 59 || (second === 60 && utcMinute === 1439));
  if (!match || !fits || offsetHours > 23 || offsetMinutes > 59) {
    throw badRequest(`${name} must be an RFC 3339 date-time, e.g. 2026-11-23T12:00:00Z`);
  }
  // setUTCFullYear, unlike Date.UTC, takes years 0..99 as they are.
  const date = new Date(0);
  date.setUTCFullYear(year, month - 1, day);
  date.setUTCHours(hour, minute, second, ceilMilliseconds(match[7] ?? ""));
  return date.getTime() - offsetMinutesEast * 60_000;
}

/**
 * A second's fraction in whole milliseconds, rounded up: games finish on whole milliseconds, so a
 * game is at or after a finer bound (finishedAfter), or before it (finishedBefore), exactly when
 * it is so for the bound rounded up (a game at .004 is before .0041, not at or after it).
 */
function ceilMilliseconds(fraction: string): number {
  const whole = Number(fraction.slice(0, 3).padEnd(3, "0"));
  return /[1-9]/.test(fraction.slice(3)) ? whole + 1 : whole;
}
