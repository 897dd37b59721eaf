// The audit's arithmetic: every amount as a BigInt, so no sum can lose a cent, and a table's money
// figures by name (the table contract's TableMoney, listed once in common).
import type { TableMoney } from "@pokerodds/common/generated/pokerodds/table/v1/table";
import { perMoneyField, type TableMoneyField } from "@pokerodds/common/table-money";
import { formatCents } from "./money-text.js";

export type BigMoney = Record<TableMoneyField, bigint>;

export const big = (value: number | undefined): bigint => BigInt(value ?? 0);

export const sum = (values: Iterable<bigint>): bigint => {
  let total = 0n;
  for (const value of values) total += value;
  return total;
};

/** Cents as units in a message: -1234567n -> "-12,345.67". */
export const units = formatCents;

export function bigMoney(money: TableMoney | undefined): BigMoney {
  return perMoneyField((field) => big(money?.[field]));
}
