import { MongoServerError } from "mongodb";

/** An insert refused by a unique index: the one write that is atomic on FerretDB v1 and MongoDB alike. */
export function isDuplicateKey(error: unknown): boolean {
  return error instanceof MongoServerError && error.code === 11000;
}
