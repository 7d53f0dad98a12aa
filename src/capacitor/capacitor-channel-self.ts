import { DEFAULT_CHANNEL } from '@ota/shared/ids';
import { allowsSelfAssign, selfAssignableChannels } from '../channels/channel-rules.js';
import type { CapacitorInfo, CapacitorService } from './capacitor.service.js';
import type { CapacitorChannelsStore } from './capacitor-channels.store.js';
import { isKnownChannel } from './capacitor-rules.js';

export type ChannelSetAnswer =
  | { status: 'ok'; allowSet: true }
  | { error: 'channel_self_set_not_allowed' | 'channel_not_found'; message: string };

export interface ChannelGetAnswer {
  channel: string;
  status: 'override' | 'default';
  allowSet: boolean;
}

export interface ListedChannel {
  id: number;
  name: string;
  public: boolean;
  allow_self_set: boolean;
}

/**
 * `channelUrl` (API.md, "Capacitor"; capacitor-protocol.md §8): setChannel (POST), getChannel (PUT),
 * listChannels (GET) and the unsetChannel of plugins before 7.34 (DELETE). A device moves itself only onto a
 * channel that allows self-assignment (src/channels/channel-rules.ts); what it asked for is stored for the
 * plugins that send no `defaultChannel` and rely on the service to remember it.
 */
export class CapacitorChannelSelf {
  constructor(
    private readonly capacitor: Pick<CapacitorService, 'route' | 'asked'>,
    private readonly store: CapacitorChannelsStore,
  ) {}

  async set(appId: string, deviceId: string, channel: string): Promise<ChannelSetAnswer> {
    const route = await this.capacitor.route(appId);
    if (!isKnownChannel(route, channel))
      return { error: 'channel_not_found', message: `The app has no channel "${channel}".` };
    if (!allowsSelfAssign(route, channel)) {
      return {
        error: 'channel_self_set_not_allowed',
        message: `The channel "${channel}" does not allow devices to join it by themselves.`,
      };
    }
    // production is where a device without a channel is served: nothing to remember.
    if (channel === DEFAULT_CHANNEL) await this.store.clear(route.appId, deviceId);
    else await this.store.set(route.appId, deviceId, channel);
    return { status: 'ok', allowSet: true };
  }

  /**
   * The device's own channel: `override` when it chose one other than the app's default, `default`
   * otherwise. A device override is never answered as the device's channel: plugin 8 keeps what it reads
   * here, and would stay on the override's channel after the override is removed.
   */
  async get(appId: string, info: CapacitorInfo): Promise<ChannelGetAnswer> {
    const route = await this.capacitor.route(appId);
    const { channel } = await this.capacitor.asked(route, info);
    return {
      channel,
      status: channel === DEFAULT_CHANNEL ? 'default' : 'override',
      allowSet: allowsSelfAssign(route, channel),
    };
  }

  /** The channels a device may join: `id` a number (the plugin parses it as one), production public. */
  async list(appId: string): Promise<ListedChannel[]> {
    const route = await this.capacitor.route(appId);
    return selfAssignableChannels(route).map((name, i) => ({
      id: i + 1,
      name,
      public: name === DEFAULT_CHANNEL,
      allow_self_set: true,
    }));
  }

  async unset(appId: string, deviceId: string): Promise<void> {
    const route = await this.capacitor.route(appId);
    await this.store.clear(route.appId, deviceId);
  }
}
