// A small Server-Sent Events reader for tests: opens GET <url> with a bearer token (as a browser
// client built on fetch does; EventSource cannot send one), and records every event and comment
// as it arrives, by the text/event-stream rules (fields per line, a blank line ends an event).

export interface SseEvent {
  id?: string;
  event?: string;
  data: string;
}

export interface SseStream {
  status: number;
  headers: Headers;
  /** The answer's body when it is not a stream (an error's JSON). */
  body?: unknown;
  events: SseEvent[];
  /** Comment lines (without the leading colon and space), e.g. "keep-alive". */
  comments: string[];
  /** Resolves when the server ends the stream or it is closed here. */
  closed: Promise<void>;
  /** True once the server ended the stream (not when closed here). */
  endedByServer(): boolean;
  close(): void;
}

export async function openSse(
  url: string,
  token: string | null,
  headers: Record<string, string> = {},
): Promise<SseStream> {
  const abort = new AbortController();
  const response = await fetch(url, {
    headers: { ...(token === null ? {} : { authorization: `Bearer ${token}` }), ...headers },
    signal: abort.signal,
  });
  const events: SseEvent[] = [];
  const comments: string[] = [];
  const isStream = response.headers.get("content-type")?.startsWith("text/event-stream") ?? false;
  if (!isStream || !response.body) {
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
      events,
      comments,
      closed: Promise.resolve(),
      endedByServer: () => true,
      close: () => {},
    };
  }
  let ended = false;
  const closed = read(response.body, events, comments).then(
    () => void (ended = true),
    () => undefined, // closed here (aborted)
  );
  return {
    status: response.status,
    headers: response.headers,
    events,
    comments,
    closed,
    endedByServer: () => ended,
    close: () => abort.abort(),
  };
}

async function read(body: ReadableStream<Uint8Array>, events: SseEvent[], comments: string[]): Promise<void> {
  const decoder = new TextDecoder();
  let buffer = "";
  for await (const chunk of body) {
    buffer += decoder.decode(chunk, { stream: true });
    for (let end = buffer.indexOf("\n\n"); end >= 0; end = buffer.indexOf("\n\n")) {
      parseBlock(buffer.slice(0, end), events, comments);
      buffer = buffer.slice(end + 2);
    }
  }
}

function parseBlock(block: string, events: SseEvent[], comments: string[]): void {
  const event: SseEvent = { data: "" };
  let hasField = false;
  const data: string[] = [];
  for (const line of block.split("\n")) {
    if (line.startsWith(":")) {
      comments.push(line.slice(1).trimStart());
      continue;
    }
    const colon = line.indexOf(":");
    const field = colon < 0 ? line : line.slice(0, colon);
    const value = colon < 0 ? "" : line.slice(colon + 1).replace(/^ /, "");
    hasField = true;
    if (field === "data") data.push(value);
    else if (field === "id") event.id = value;
    else if (field === "event") event.event = value;
  }
  if (!hasField) return;
  event.data = data.join("\n");
  events.push(event);
}
