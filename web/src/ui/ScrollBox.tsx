import type { ComponentChildren } from "preact";
import { useEffect, useRef, useState } from "preact/hooks";

/**
 * A table that may be too wide for a narrow phone (large figures, long names) scrolls sideways in
 * this box rather than the page. Only while it does is the box a named, focusable region, so it can
 * be scrolled from the keyboard without adding a tab stop to every table that fits.
 */
export function ScrollBox({ label, children }: { label: string; children: ComponentChildren }) {
  const box = useRef<HTMLDivElement>(null);
  const [scrolls, setScrolls] = useState(false);
  useEffect(() => {
    const element = box.current;
    if (!element) return;
    // The box's width follows the window's, its content's the figures shown.
    const observer = new ResizeObserver(() => setScrolls(element.scrollWidth > element.clientWidth));
    observer.observe(element);
    if (element.firstElementChild) observer.observe(element.firstElementChild);
    return () => observer.disconnect();
  }, []);
  return (
    <div
      ref={box}
      class="scroll"
      role={scrolls ? "region" : undefined}
      aria-label={scrolls ? label : undefined}
      tabIndex={scrolls ? 0 : undefined}
    >
      {children}
    </div>
  );
}
