import { useState } from 'preact/hooks';

/**
 * A value people paste into the CLI (module ids, versions): shown in full, selectable, with a Copy button
 * that says when it worked. Where the clipboard is refused (no secure context) the text is selected instead.
 */
export function Copyable(props: { text: string; testId?: string }) {
  const [copied, setCopied] = useState(false);
  const copy = async (event: Event) => {
    const code = (event.currentTarget as HTMLElement).previousElementSibling;
    try {
      await navigator.clipboard.writeText(props.text);
      setCopied(true);
      setTimeout(() => setCopied(false), 1500);
    } catch {
      if (code) window.getSelection()?.selectAllChildren(code);
    }
  };
  return (
    <span class="copyable">
      <code data-testid={props.testId}>{props.text}</code>
      <button type="button" class="link small" onClick={copy} aria-label={`Copy ${props.text}`}>
        {copied ? 'Copied' : 'Copy'}
      </button>
    </span>
  );
}
