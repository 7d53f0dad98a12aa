import type { FakeManifestsStore } from '../expo/manifests.fake-store.js';
import type { FakeReleasesStore } from '../releases/releases.fake-store.js';
import type { ReleaseRow } from '../releases/releases.store.js';
import type {
  DeltaRelease,
  DeltaRow,
  DeltasStore,
  EmbeddedBase,
  PackageRow,
  ServedDeltas,
} from './deltas.store.js';
import { launchAssetsOf } from './launch-asset.js';

/** The deltas tables in memory; releases and their manifests are read from the other fakes. */
export class FakeDeltasStore implements DeltasStore {
  readonly packages = new Map<string, PackageRow>();
  readonly deltas = new Map<string, DeltaRow>();
  /** Capacitor manifest blob -> the file blobs it names. */
  readonly manifestFiles = new Map<string, Set<string>>();

  constructor(private readonly fakes: { releases: FakeReleasesStore; manifests: FakeManifestsStore }) {}

  async release(id: string): Promise<DeltaRelease | undefined> {
    const row = this.fakes.releases.rows.find((r) => r.id === id);
    return row && this.toRelease(row);
  }

  async earlier(appId: string, channel: string, beforeSeq: number, limit: number): Promise<DeltaRelease[]> {
    return this.fakes.releases.rows
      .filter((r) => r.app_id === appId && r.channel === channel && r.seq < beforeSeq)
      .sort((a, b) => b.seq - a.seq)
      .slice(0, limit)
      .map((r) => this.toRelease(r));
  }

  async embeddedBases(
    appId: string,
    fingerprint: string,
    uptoSeq: number,
    limit: number,
  ): Promise<EmbeddedBase[]> {
    const newest = new Map<string, EmbeddedBase & { seq: number }>();
    for (const r of this.fakes.releases.rows) {
      if (r.app_id !== appId || r.fingerprint !== fingerprint || r.seq > uptoSeq) continue;
      for (const e of this.fakes.manifests.embeddedByRelease.get(r.id) ?? []) {
        const key = `${e.platform}|${e.update_id}`;
        if ((newest.get(key)?.seq ?? -1) < r.seq) newest.set(key, { ...e, seq: r.seq });
      }
    }
    const out: EmbeddedBase[] = [];
    for (const platform of ['android', 'ios'] as const) {
      const list = [...newest.values()]
        .filter((e) => e.platform === platform)
        .sort((a, b) => b.seq - a.seq || (a.update_id < b.update_id ? -1 : 1))
        .slice(0, limit);
      out.push(...list.map(({ seq: _seq, ...e }) => e));
    }
    return out;
  }

  async recordPackage(row: PackageRow): Promise<void> {
    this.packages.set(row.release_id, { ...row });
  }

  async package(releaseId: string): Promise<PackageRow | undefined> {
    const row = this.packages.get(releaseId);
    return row && { ...row };
  }

  async recordManifestFiles(manifestSha256: string, fileSha256s: readonly string[]): Promise<void> {
    const files = this.manifestFiles.get(manifestSha256) ?? new Set<string>();
    for (const sha of fileSha256s) files.add(sha);
    this.manifestFiles.set(manifestSha256, files);
  }

  async recordDelta(row: DeltaRow): Promise<void> {
    const key = [row.target_release_id, row.kind, row.platform, row.base_update_id].join('|');
    this.deltas.set(key, { ...row });
  }

  async deltasOf(targetReleaseId: string): Promise<DeltaRow[]> {
    const order = (r: DeltaRow) => [r.kind, r.platform, r.base_update_id].join('|');
    return [...this.deltas.values()]
      .filter((r) => r.target_release_id === targetReleaseId)
      .sort((a, b) => (order(a) < order(b) ? -1 : order(a) > order(b) ? 1 : 0))
      .map((r) => ({ ...r }));
  }

  async served(appId: string, limit: number): Promise<ServedDeltas> {
    const releases = new Map(
      this.fakes.releases.rows
        .filter((r) => r.app_id === appId)
        .sort((a, b) => b.seq - a.seq)
        .slice(0, limit)
        .map((r) => [
          r.id,
          { sha256: r.sha256, version: r.version, folder_hash: this.packages.get(r.id)?.folder_hash ?? null },
        ]),
    );
    const newest = new Set(releases.keys());
    const order = (r: DeltaRow) => [r.target_release_id, r.kind, r.platform, r.base_update_id].join('|');
    const deltas = [...this.deltas.values()]
      .filter((d) => newest.has(d.target_release_id))
      .sort((a, b) => (order(a) < order(b) ? -1 : order(a) > order(b) ? 1 : 0))
      .map((d) => ({ ...d }));
    return { releases, deltas };
  }

  private toRelease(r: ReleaseRow): DeltaRelease {
    return {
      id: r.id,
      app_id: r.app_id,
      channel: r.channel,
      seq: r.seq,
      sha256: r.sha256,
      size: r.size,
      fingerprint: r.fingerprint,
      launch_assets: launchAssetsOf(this.fakes.manifests.partsByRelease.get(r.id) ?? []),
    };
  }
}
