import type { AppRoute } from '../routing/routing.types.js';

/**
 * CodePush reports name a release by its label (our release `version`), possibly one rolled back since.
 * The label -> release id map of an app's channel (every release, rolled back ones included) is loaded on
 * the first report and kept with the app's routing state: when routing state is reloaded (after a push,
 * a rollback or its TTL) the map is loaded again with it, so it never lags behind releases.
 */
export class ReleaseLabels {
  private readonly byRoute = new WeakMap<AppRoute, Map<string, Promise<Map<string, string>>>>();

  constructor(
    private readonly source: { releaseLabels(appId: string, channel: string): Promise<Map<string, string>> },
  ) {}

  /** The release id of `label` on the channel, or undefined when the channel has no such release. */
  async releaseOf(route: AppRoute, channel: string, label: string): Promise<string | undefined> {
    let channels = this.byRoute.get(route);
    if (!channels) {
      channels = new Map();
      this.byRoute.set(route, channels);
    }
    let labels = channels.get(channel);
    if (!labels) {
      labels = this.source.releaseLabels(route.appId, channel);
      // A failed load is not kept: the next report tries again.
      labels.catch(() => channels.delete(channel));
      channels.set(channel, labels);
    }
    return (await labels).get(label);
  }
}
