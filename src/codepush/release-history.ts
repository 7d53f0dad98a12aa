import { type BinaryRange, binaryRangeOf } from '../releases/binary-range.js';
import type { AppRoute } from '../routing/routing.types.js';

/** A release of a channel as the history holds it (every release, rolled back ones included). */
export interface HistoryRow {
  id: string;
  version: string;
  seq: number;
  active: boolean;
  mandatory: boolean;
  fingerprint: string | null;
  target_binary_range: string | null;
}

interface MandatoryRelease {
  seq: number;
  fingerprint: string | null;
  range: BinaryRange | null;
}

/**
 * The release history of one app's channel, as the CodePush adapter needs it: label (release version) ->
 * release, for reports naming any release (rolled back ones included), and the active mandatory releases,
 * so an update can be marked mandatory when the device would skip one of them.
 */
export class ChannelHistory {
  private readonly byLabel = new Map<string, { id: string; seq: number }>();
  private readonly mandatory: MandatoryRelease[] = [];

  constructor(rows: readonly HistoryRow[]) {
    for (const r of rows) {
      this.byLabel.set(r.version, { id: r.id, seq: Number(r.seq) });
      if (r.active && r.mandatory) {
        this.mandatory.push({
          seq: Number(r.seq),
          fingerprint: r.fingerprint,
          range: binaryRangeOf(r.target_binary_range),
        });
      }
    }
  }

  releaseOf(label: string): string | undefined {
    return this.byLabel.get(label)?.id;
  }

  /**
   * True when an active mandatory release that fits a device of `appVersion` (no fingerprint: CodePush
   * devices send none) was pushed after the release the device runs and before the one it is offered. A
   * label that names no release of the channel counts as older than every release.
   */
  skipsMandatory(servedLabel: string, runningLabel: string, appVersion: string): boolean {
    const served = this.byLabel.get(servedLabel)?.seq;
    if (served === undefined) return false;
    const running = this.byLabel.get(runningLabel)?.seq ?? Number.NEGATIVE_INFINITY;
    return this.mandatory.some(
      (m) =>
        m.seq > running &&
        m.seq < served &&
        m.fingerprint === null &&
        (m.range === null || m.range.admits(appVersion)),
    );
  }
}

/**
 * Channel histories, loaded on first use and kept with the app's routing state: when routing state is
 * reloaded (after a push, a rollout change, a rollback or its TTL), the history is loaded again with it, so
 * it never lags behind releases. One query per app, channel and routing load; none per report or check.
 */
export class ReleaseHistories {
  private readonly byRoute = new WeakMap<AppRoute, Map<string, Promise<ChannelHistory>>>();
  /** The histories loaded so far, for a caller that must not wait a turn of the event loop (peek). */
  private readonly loaded = new WeakMap<AppRoute, Map<string, ChannelHistory>>();

  constructor(
    private readonly source: { releaseHistory(appId: string, channel: string): Promise<HistoryRow[]> },
  ) {}

  of(route: AppRoute, channel: string): Promise<ChannelHistory> {
    let channels = this.byRoute.get(route);
    if (!channels) {
      channels = new Map();
      this.byRoute.set(route, channels);
    }
    let history = channels.get(channel);
    if (!history) {
      history = this.source.releaseHistory(route.appId, channel).then((rows) => {
        const loaded = new ChannelHistory(rows);
        let done = this.loaded.get(route);
        if (!done) {
          done = new Map();
          this.loaded.set(route, done);
        }
        done.set(channel, loaded);
        return loaded;
      });
      // A failed load is not kept: the next request tries again.
      const held = channels;
      history.catch(() => held.delete(channel));
      channels.set(channel, history);
    }
    return history;
  }

  /** The history `of` has loaded for this routing state, or undefined when it has not (yet): call `of`. */
  peek(route: AppRoute, channel: string): ChannelHistory | undefined {
    return this.loaded.get(route)?.get(channel);
  }
}
