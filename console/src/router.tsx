import type { ComponentChildren, JSX } from 'preact';
import { useEffect, useState } from 'preact/hooks';

export { invitationToken, linkToken, matchRoute, type Route } from './routes.js';

/**
 * A few lines of history routing instead of a router package: the console has a handful of flat pages, and
 * the API answers every non-API path with index.html so deep links and reloads land on the right page.
 */
const listeners = new Set<() => void>();

export function navigate(path: string, replace = false): void {
  if (path === currentPath()) return;
  if (replace) window.history.replaceState(null, '', path);
  else window.history.pushState(null, '', path);
  for (const listener of listeners) listener();
}

export function currentPath(): string {
  return window.location.pathname + window.location.search;
}

window.addEventListener('popstate', () => {
  for (const listener of listeners) listener();
});

export function usePath(): string {
  const [path, setPath] = useState(currentPath());
  useEffect(() => {
    const update = () => setPath(currentPath());
    listeners.add(update);
    return () => {
      listeners.delete(update);
    };
  }, []);
  return path;
}

/** An anchor that navigates without a reload (a modified click still opens a new tab). */
export function Link(
  props: {
    href: string;
    class?: string;
    children: ComponentChildren;
  } & JSX.HTMLAttributes<HTMLAnchorElement>,
) {
  const { href, children, ...rest } = props;
  const onClick = (event: MouseEvent) => {
    if (event.defaultPrevented || event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey)
      return;
    event.preventDefault();
    navigate(href);
  };
  return (
    <a href={href} onClick={onClick} {...rest}>
      {children}
    </a>
  );
}
