import type { BlobLinks } from '../bundles/blob-links.js';
import type { RouteSlotLoader } from '../routing/routing.source.js';
import { type CodePushPackages, codePushPackages } from './codepush-packages.js';

declare module '../routing/routing.types.js' {
  interface RouteSlots {
    /** CodePush package hashes and diff packages (codepush-packages.ts). */
    codePush?: CodePushPackages;
  }
}

/**
 * The CodePush adapter's slot of the routing entry: its packages' folder hashes and diff packages, built
 * from the served deltas loaded before it, each diff at the store's URL (CDN or presigned) when it has one.
 */
export function codePushRouteSlot(options: {
  links: BlobLinks | null;
  bundleUrl: (sha256: string) => string;
}): RouteSlotLoader {
  const { links, bundleUrl } = options;
  const diffLink = async (sha256: string) => (await links?.link(sha256)) ?? { url: bundleUrl(sha256) };
  return {
    load: async (_appId, earlier) => {
      if (!earlier.deltas) return { slots: {} };
      const codePush = await codePushPackages(earlier.deltas, diffLink);
      return {
        slots: { codePush: codePush.packages },
        ...(codePush.handOutUntil === undefined ? {} : { handOutUntil: codePush.handOutUntil }),
      };
    },
  };
}
