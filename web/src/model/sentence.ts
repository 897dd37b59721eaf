/**
 * The API's words as a sentence on the page: it writes them lower case and without a stop, for any
 * client. A first word in camel case is a request field's name (numberOfGames), kept as it is spelt.
 */
export function asSentence(text: string): string {
  const capitalised = /^[a-z]+\b/.test(text) ? text.charAt(0).toUpperCase() + text.slice(1) : text;
  return /[.!?]$/.test(capitalised) ? capitalised : `${capitalised}.`;
}
