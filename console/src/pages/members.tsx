import { useState } from 'preact/hooks';
import type { InvitedMember, Member, Role } from '../../../client/index.js';
import { DataTable } from '../components/data-table.js';
import { ActionError, Confirm, InvitationLink, Show } from '../components/ui.js';
import { FAILED, useAction, useConfirmed, useResource } from '../hooks.js';
import { canManage, useSession } from '../session.js';

const ASSIGNABLE: Array<Exclude<Role, 'owner'>> = ['admin', 'developer', 'viewer'];

export function MembersPanel() {
  const { client, workspace } = useSession();
  const members = useResource(() => client.members.list(workspace.id), [client, workspace.id]);
  const [email, setEmail] = useState('');
  const [role, setRole] = useState<Exclude<Role, 'owner'>>('developer');
  const [invited, setInvited] = useState<InvitedMember | null>(null);
  const invite = useAction();
  const change = useAction();
  const manage = canManage(workspace.role);

  /** Inviting an e-mail that is still invited answers a new link (the old one stops working). */
  const sendInvitation = async (to: string, as: Exclude<Role, 'owner'>) => {
    const result = await invite.run(() => client.members.invite(workspace.id, { email: to, role: as }));
    if (result === FAILED) return false;
    setInvited(result);
    await members.reload();
    return true;
  };
  const submit = async (event: Event) => {
    event.preventDefault();
    if (await sendInvitation(email.trim(), role)) setEmail('');
  };
  const setMemberRole = async (member: Member, next: Role) => {
    const result = await change.run(() => client.members.setRole(workspace.id, member.id, next));
    if (result === FAILED) return;
    members.mutate((current) =>
      current
        ? { members: current.members.map((m) => (m.id === member.id ? { ...m, role: result.role } : m)) }
        : current,
    );
  };
  const removing = useConfirmed(
    change,
    (member: Member) => client.members.remove(workspace.id, member.id),
    (member) =>
      members.mutate((current) =>
        current ? { members: current.members.filter((m) => m.id !== member.id) } : current,
      ),
  );

  return (
    <section class="panel" aria-labelledby="members-title">
      <h2 id="members-title">Members</h2>
      {manage && (
        <form class="inline-form" onSubmit={submit} aria-label="Invite a member">
          <label>
            E-mail
            <input
              type="email"
              name="invite-email"
              required
              value={email}
              onInput={(e) => setEmail(e.currentTarget.value)}
            />
          </label>
          <label>
            Role
            <select
              name="invite-role"
              value={role}
              onChange={(e) => setRole(e.currentTarget.value as Exclude<Role, 'owner'>)}
            >
              {ASSIGNABLE.map((r) => (
                <option key={r} value={r}>
                  {r}
                </option>
              ))}
            </select>
          </label>
          <button type="submit" disabled={invite.busy}>
            {invite.busy ? 'Inviting…' : 'Invite'}
          </button>
        </form>
      )}
      <ActionError error={invite.error} />
      {invited && <InvitationLink invited={invited} onDone={() => setInvited(null)} />}
      <ActionError error={change.error} />
      <Show resource={members} label="Loading members…">
        {({ members: list }) => (
          <DataTable
            testId="members"
            rows={list}
            rowKey={(m) => m.id}
            columns={[
              { label: 'E-mail', wrap: true, cell: (m) => m.email },
              {
                label: 'Role',
                cell: (m) =>
                  manage && m.role !== 'owner' ? (
                    <select
                      aria-label={`Role of ${m.email}`}
                      value={m.role}
                      disabled={change.busy}
                      onChange={(e) => void setMemberRole(m, e.currentTarget.value as Role)}
                    >
                      {ASSIGNABLE.map((r) => (
                        <option key={r} value={r}>
                          {r}
                        </option>
                      ))}
                    </select>
                  ) : (
                    m.role
                  ),
              },
              { label: 'Status', cell: (m) => m.status },
              {
                label: 'Actions',
                hideLabel: true,
                class: 'actions',
                cell: (m) => (
                  <>
                    {manage && m.status === 'invited' && (
                      <button
                        type="button"
                        class="secondary small"
                        disabled={invite.busy}
                        onClick={() => void sendInvitation(m.email, m.role as Exclude<Role, 'owner'>)}
                      >
                        New link
                      </button>
                    )}
                    {manage && m.role !== 'owner' && (
                      <button type="button" class="danger small" onClick={() => removing.ask(m)}>
                        Remove
                      </button>
                    )}
                  </>
                ),
              },
            ]}
          />
        )}
      </Show>
      {removing.pending && (
        <Confirm
          title={`Remove ${removing.pending.email}?`}
          confirmLabel="Remove"
          busy={change.busy}
          onConfirm={() => void removing.confirm()}
          onCancel={() => removing.cancel()}
        >
          <p>
            They lose access to this workspace at once; their signed-in sessions and the API keys they made
            stop working. An invitation not yet accepted is withdrawn.
          </p>
        </Confirm>
      )}
    </section>
  );
}
