// A deck in a random order, derived as the service derives every deck: from a fresh server seed.
import { deriveDeck } from "@pokerodds/common/deck-derivation";
import { newServerSeed } from "@pokerodds/common/server-seed";

export const randomDeck = (): number[] => deriveDeck(newServerSeed(), "test");
