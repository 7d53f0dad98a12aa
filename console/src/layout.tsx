import type { ComponentChildren } from 'preact';
import { useState } from 'preact/hooks';
import { errorText } from './api.js';
import { SelectField } from './components/form.js';
import { ErrorBox, PlanBadge } from './components/ui.js';
import { Link, type Route } from './router.js';
import { useSession } from './session.js';

const NAV: Array<{ page: Route['page']; href: string; label: string }> = [
  { page: 'apps', href: '/apps', label: 'Apps' },
  { page: 'usage', href: '/usage', label: 'Usage' },
  { page: 'team', href: '/team', label: 'Team' },
  { page: 'webhooks', href: '/webhooks', label: 'Webhooks' },
  { page: 'activity', href: '/activity', label: 'Activity' },
  { page: 'plan', href: '/plan', label: 'Plan' },
  { page: 'account', href: '/account', label: 'Account' },
];

export function Layout(props: { page: Route['page']; children: ComponentChildren }) {
  const { me, workspace, switchWorkspace, endSession, session } = useSession();
  const [switching, setSwitching] = useState(false);
  const [leaving, setLeaving] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const active = props.page === 'app' ? 'apps' : props.page;

  const onSwitch = async (id: string) => {
    if (id === workspace.id) return;
    setSwitching(true);
    setError(null);
    try {
      await switchWorkspace(id);
    } catch (err) {
      setError(errorText(err));
      setSwitching(false);
    }
  };

  return (
    <div class="shell">
      <header class="top">
        <Link href="/apps" class="brand">
          OTA console
        </Link>
        <SelectField
          class="switcher"
          label="Workspace"
          hideLabel
          ariaLabel="Workspace"
          value={workspace.id}
          disabled={switching}
          onValue={(id) => void onSwitch(id)}
          choices={me.workspaces.map((w) => ({ value: w.id, label: `${w.name} (${w.role})` }))}
        />
        <Link href="/plan" class="plan-link" aria-label={`Plan ${workspace.plan}`}>
          <PlanBadge plan={workspace.plan} />
        </Link>
        <span class="who" title={me.user?.email ?? session.email}>
          {me.user?.email ?? session.email}
        </span>
        <button
          type="button"
          class="secondary small"
          disabled={leaving}
          onClick={() => {
            setLeaving(true);
            void endSession();
          }}
        >
          Sign out
        </button>
      </header>
      <nav class="tabs" aria-label="Sections">
        {NAV.map((item) => (
          <Link
            key={item.page}
            href={item.href}
            class={item.page === active ? 'active' : ''}
            aria-current={item.page === active ? 'page' : undefined}
          >
            {item.label}
          </Link>
        ))}
      </nav>
      {error && <ErrorBox text={error} />}
      <main class="content">{props.children}</main>
    </div>
  );
}
