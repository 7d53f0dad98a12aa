import type { Plan } from '../plans/plans.js';
import { notFound } from '../platform/errors.js';
import type { WorkspacesStore } from './workspaces.store.js';

/** The plan in force now (gates read it per call, so an upgrade lifts a gate at once). */
export async function planOf(store: Pick<WorkspacesStore, 'find'>, workspaceId: string): Promise<Plan> {
  const workspace = await store.find(workspaceId);
  if (!workspace) throw notFound('Workspace');
  return workspace.plan;
}
