import type { RefusalReason } from '@ota/shared/contracts';
import { DEFAULT_CHANNEL } from '@ota/shared/ids';
import { allowsSelfAssign, selfAssignableChannels } from '../channels/channel-rules.js';
import type { Admission } from '../devices/device-cap.js';
import { clientBucket, type DeviceClient } from '../edge/client-address.js';
import type { AppRoute } from '../routing/routing.types.js';
import type { CapacitorInfo, CapacitorService } from './capacitor.service.js';
import type { CapacitorChannelsStore } from './capacitor-channels.store.js';
import { isKnownChannel } from './capacitor-rules.js';
import { pluginAbilities } from './plugin-versions.js';

export type ChannelSetAnswer =
  | { status: 'ok'; allowSet: true }
  | {
      error:
        | 'channel_self_set_not_allowed'
        | 'channel_not_found'
        | RefusalReason
        | 'app_full'
        | 'address_limit';
      message: string;
    };

const OK: ChannelSetAnswer = { status: 'ok', allowSet: true };

/** Why a channel was not stored (the plugin fails setChannel() and keeps its channel). */
const REFUSED: Record<RefusalReason | 'app_full' | 'address_limit', string> = {
  device_cap: "The app's workspace serves no more devices on its plan.",
  new_device_limit: 'Too many new devices from this network; try again later.',
  app_full: 'The app keeps no more device channels; try again later.',
  address_limit: 'Too many devices from this network set a channel; try again later.',
};

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
 * channel that allows self-assignment (src/channels/channel-rules.ts); what it asked for is stored only for
 * the plugins that rely on the service to remember it (plugin-versions.ts `channel: 'server'`), and only
 * for a device the workspace's device cap admits, within the store's bounds (capacitor-channels.store.ts).
 */
export class CapacitorChannelSelf {
  constructor(
    private readonly capacitor: Pick<CapacitorService, 'route' | 'asked'>,
    private readonly store: CapacitorChannelsStore,
    /** The device cap's verdict, as for an update check (DeviceCapGate.admit). */
    private readonly admit: (
      route: AppRoute,
      deviceId: string,
      client: DeviceClient,
    ) => Admission | Promise<Admission> = () => 'admitted',
  ) {}

  async set(
    info: CapacitorInfo & { channel: string },
    appId: string,
    client: DeviceClient,
  ): Promise<ChannelSetAnswer> {
    const { device_id: deviceId, channel } = info;
    const route = await this.capacitor.route(appId);
    if (!isKnownChannel(route, channel))
      return { error: 'channel_not_found', message: `The app has no channel "${channel}".` };
    if (!allowsSelfAssign(route, channel)) {
      return {
        error: 'channel_self_set_not_allowed',
        message: `The channel "${channel}" does not allow devices to join it by themselves.`,
      };
    }
    // A plugin that keeps its channel on the device only asks whether it may: nothing to remember.
    if (pluginAbilities(info.plugin_version, info.platform).channel === 'device') return OK;
    // production is where a device without a channel is served: nothing to remember either.
    if (channel === DEFAULT_CHANNEL) {
      await this.store.clear(route, deviceId);
      return OK;
    }
    const admission = await this.admit(route, deviceId, client);
    if (admission !== 'admitted') return { error: admission, message: REFUSED[admission] };
    const outcome = await this.store.set(route, deviceId, channel, clientBucket(client.ip));
    return outcome === 'stored' ? OK : { error: outcome, message: REFUSED[outcome] };
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
    await this.store.clear(route, deviceId);
  }
}
