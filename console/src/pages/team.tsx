import { ApiKeysPanel } from './api-keys.js';
import { MembersPanel } from './members.js';

export function TeamPage() {
  return (
    <section aria-labelledby="team-title">
      <h1 id="team-title">Team</h1>
      <MembersPanel />
      <ApiKeysPanel />
    </section>
  );
}
