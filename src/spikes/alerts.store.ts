import type { AlertSettings } from './spike-state.js';

/** Per-app alert settings; an app without its own settings uses the documented defaults. */
export interface AlertsStore {
  get(appId: string): Promise<AlertSettings>;
  /** Changes the fields given; the others keep their value (the default for an app without settings). */
  update(appId: string, input: Partial<AlertSettings>): Promise<AlertSettings>;
}
