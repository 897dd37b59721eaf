// A table's game state by its public name (STATUS_HOLE) from the table contract's enum
// (GAME_STATE_STATUS_HOLE), and back: the public API and the money audit's report both name them so.
import { GameState, gameStateFromJSON, gameStateToJSON } from "./generated/pokerodds/table/v1/table.js";

/** The public name; UNRECOGNIZED for a number the contract does not have. */
export const gameStateName = (state: GameState): string => gameStateToJSON(state).replace(/^GAME_STATE_/, "");

/** The contract's value of a public name; UNRECOGNIZED (-1) for a name it does not have. */
export const gameStateOfName = (name: string): GameState => gameStateFromJSON(`GAME_STATE_${name}`);
