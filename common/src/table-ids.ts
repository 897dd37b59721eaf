// How tables are numbered, for every service: public tables are 1..TABLE_COUNT (the table service's
// setting, at most FIRST_PERSONAL_TABLE_ID - 1); personal tables, which the wallet allocates to
// players, are numbered from FIRST_PERSONAL_TABLE_ID up.

/** Personal tables are numbered from here up, clear of the public tables 1..TABLE_COUNT. */
export const FIRST_PERSONAL_TABLE_ID = 1001;

/** The answer (404) for a table id that names no table, wherever it is found out. */
export const noSuchTable = (tableId: number | string): string => `no table ${tableId}`;
