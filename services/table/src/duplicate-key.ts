import { MongoServerError } from "mongodb";

/** An insert refused by a unique index: the one write that is atomic on FerretDB v1 and MongoDB alike. */
export function isDuplicateKey(error: unknown): boolean {
  return error instanceof MongoServerError && error.code === 11000;
}

/** Inserts, answering false instead of throwing when the document (or its unique key) already exists. */
export async function insertUnlessPresent(insert: () => Promise<unknown>): Promise<boolean> {
  try {
    await insert();
    return true;
  } catch (error) {
    if (isDuplicateKey(error)) return false;
    throw error;
  }
}
