// The money figures of one table (table.proto's TableMoney), listed once, in the message's order, for
// the table service, which totals them over its tables, and the money audit, which checks that total.
import type { TableMoney } from "./generated/pokerodds/table/v1/table.js";

export const TABLE_MONEY_FIELDS = [
  "seatsCents",
  "openStakesCents",
  "outboxCents",
  "deliveredCents",
  "houseResultCents",
  "creditedCents",
] as const satisfies readonly (keyof TableMoney)[];

export type TableMoneyField = (typeof TABLE_MONEY_FIELDS)[number];

/** Every money field, each valued by `value`: a total over tables, a copy in bigints, a report's figures. */
export function perMoneyField<T>(value: (field: TableMoneyField) => T): Record<TableMoneyField, T> {
  const record = {} as Record<TableMoneyField, T>;
  for (const field of TABLE_MONEY_FIELDS) record[field] = value(field);
  return record;
}

/** Compiles only while every field of the message is listed: a field added to the proto must join the list. */
type Unlisted = Exclude<keyof TableMoney, TableMoneyField>;
const _everyFieldListed: [Unlisted] extends [never] ? true : Unlisted = true;
