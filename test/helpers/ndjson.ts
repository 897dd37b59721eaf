// A small JSON Lines reader for tests: opens GET <url> with a bearer token and records every line as
// it arrives (parsed), and whether the body ended cleanly or the connection was cut before its end.

export interface LineStream {
  status: number;
  headers: Headers;
  /** The answer's body when it is not JSON Lines (an error's JSON). */
  body?: unknown;
  /** Every complete line so far, parsed. */
  lines: unknown[];
  /** Resolves when the body is over: `cut` when the connection broke before its end. */
  done: Promise<{ cut: boolean }>;
  /** Closes the connection from this side. */
  close(): void;
}

export async function openLines(url: string, token: string | null, init: RequestInit = {}): Promise<LineStream> {
  const abort = new AbortController();
  const response = await fetch(url, {
    ...init,
    headers: { ...(token === null ? {} : { authorization: `Bearer ${token}` }), ...(init.headers ?? {}) },
    signal: abort.signal,
  });
  const lines: unknown[] = [];
  const isLines = response.headers.get("content-type") === "application/x-ndjson";
  if (!isLines || !response.body) {
    const text = await response.text();
    let body: unknown = text;
    try {
      body = JSON.parse(text);
    } catch {
      // not JSON: kept as text
    }
    return {
      status: response.status,
      headers: response.headers,
      body,
      lines,
      done: Promise.resolve({ cut: false }),
      close: () => {},
    };
  }
  const done = read(response.body, lines);
  return { status: response.status, headers: response.headers, lines, done, close: () => abort.abort() };
}

async function read(body: ReadableStream<Uint8Array>, lines: unknown[]): Promise<{ cut: boolean }> {
  const decoder = new TextDecoder();
  let pending = "";
  try {
    for await (const chunk of body) {
      pending += decoder.decode(chunk, { stream: true });
      let end: number;
      while ((end = pending.indexOf("\n")) >= 0) {
        lines.push(JSON.parse(pending.slice(0, end)));
        pending = pending.slice(end + 1);
      }
    }
    if (pending.length > 0) throw new Error(`a line without its newline: ${pending}`);
    return { cut: false };
  } catch (error) {
    if (error instanceof SyntaxError) throw error;
    return { cut: true };
  }
}
