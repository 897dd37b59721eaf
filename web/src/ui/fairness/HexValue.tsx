import { useState } from "preact/hooks";

/**
 * A 64-digit hash or seed: shortened to read at a glance (the ends are what people compare), the
 * whole value one step away in a disclosure, and a button to copy it for an outside verifier.
 */
export function HexValue({ value, name, testId }: { value: string; name: string; testId: string }) {
  const [copied, setCopied] = useState("");
  const copy = () => {
    // The Clipboard API exists only in secure contexts, like WebCrypto; the full value stays selectable.
    if (!navigator.clipboard) return setCopied("Copying is not available here: select the full value instead.");
    navigator.clipboard.writeText(value).then(
      () => setCopied(`Copied the ${name}.`),
      () => setCopied("The browser refused to copy: select the full value instead."),
    );
  };
  return (
    <span class="hex" data-testid={testId} data-value={value}>
      <code class="hex-short">
        {value.slice(0, 8)}…{value.slice(-8)}
      </code>{" "}
      <button type="button" class="link-button" onClick={copy}>
        Copy<span class="visually-hidden"> the full {name}</span>
      </button>
      <span role="status" class="hint">
        {copied}
      </span>
      <details>
        <summary>
          Full value<span class="visually-hidden"> of the {name}</span>
        </summary>
        <code class="hex-full">{value}</code>
      </details>
    </span>
  );
}
