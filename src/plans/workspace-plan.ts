import { notFound } from '../platform/errors.js';
import type { Plan } from './plans.js';

/** Where a workspace's plan is read: the workspaces store. */
export interface PlanSource {
  find(workspaceId: string): Promise<{ plan: Plan } | undefined>;
}

/** The plan in force now (gates read it per call, so an upgrade lifts a gate at once). */
export async function planOf(store: PlanSource, workspaceId: string): Promise<Plan> {
  const workspace = await store.find(workspaceId);
  if (!workspace) throw notFound('Workspace');
  return workspace.plan;
}
