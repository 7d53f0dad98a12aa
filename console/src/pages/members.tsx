import { useState } from 'preact/hooks';
import type { InvitedMember, Member, Role } from '../../../client/index.js';
import { DataTable } from '../components/data-table.js';
import { Choices, Panel, SelectField, SubmitButton, TextField } from '../components/form.js';
import { ActionError, ConfirmPending, InvitationLink, Show } from '../components/ui.js';
import { FAILED, useAction, useConfirmedRemoval, useResource } from '../hooks.js';
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
  const removing = useConfirmedRemoval(
    change,
    (member: Member) => client.members.remove(workspace.id, member.id),
    members,
    'members',
    (m) => m.id,
  );

  return (
    <Panel id="members" title="Members">
      {manage && (
        <form class="inline-form" onSubmit={submit} aria-label="Invite a member">
          <TextField label="E-mail" type="email" name="invite-email" value={email} onValue={setEmail} />
          <SelectField label="Role" name="invite-role" value={role} onValue={setRole} choices={ASSIGNABLE} />
          <SubmitButton busy={invite.busy} busyLabel="Inviting…">
            Invite
          </SubmitButton>
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
                      <Choices items={ASSIGNABLE} />
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
      <ConfirmPending
        flow={removing}
        title={(m) => `Remove ${m.email}?`}
        confirmLabel="Remove"
        busy={change.busy}
      >
        <p>
          They lose access to this workspace at once; their signed-in sessions and the API keys they made stop
          working. An invitation not yet accepted is withdrawn.
        </p>
      </ConfirmPending>
    </Panel>
  );
}
