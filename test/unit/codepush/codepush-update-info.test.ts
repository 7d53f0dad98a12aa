import { describe, expect, it } from 'vitest';
import { updateInfoOf } from '../../../src/codepush/update-info.js';
import { BinaryRange } from '../../../src/releases/binary-range.js';
import type { RoutedRelease } from '../../../src/routing/routing.types.js';

function release(
  version: string,
  range: string | null,
  fingerprint: string | null = null,
  mandatory = true,
): RoutedRelease {
  return {
    id: `id-${version}`,
    version,
    rolloutPct: 100,
    fingerprint,
    binaryRange: range === null ? null : new BinaryRange(range),
    mandatory,
    paused: false,
    notes: `notes ${version}`,
    sha256: 'ab'.repeat(32),
    size: 1234,
    url: `https://ota.example.com/api/v1/bundles/${'ab'.repeat(32)}`,
    answers: new Map(),
  };
}

const base = { sentAppVersion: '1.2', appVersion: '1.2.0', admitted: true };

describe('update_info', () => {
  it('offers the served release, echoing the app version exactly as the device sent it', () => {
    const r = release('v3', '^1.0.0');
    expect(updateInfoOf({ ...base, served: r, releases: [r] })).toEqual({
      isAvailable: true,
      downloadUrl: r.url,
      packageHash: r.sha256,
      label: 'v3',
      appVersion: '1.2',
      targetBinaryRange: '1.2',
      description: 'notes v3',
      isMandatory: true,
      packageSize: 1234,
      shouldRunBinaryVersion: false,
      updateAppVersion: false,
    });
  });

  it('is mandatory when the device would skip a mandatory release on the way', () => {
    const optional = release('v4', null, null, false);
    expect(updateInfoOf({ ...base, served: optional, releases: [optional] }).isMandatory).toBe(false);
    expect(
      updateInfoOf({ ...base, served: optional, releases: [optional], skipsMandatory: true }).isMandatory,
    ).toBe(true);
  });

  it('with no release at all: nothing to install, run the binary, range *', () => {
    const info = updateInfoOf({ ...base, served: null, releases: [] });
    expect(info).toMatchObject({
      isAvailable: false,
      downloadUrl: '',
      packageHash: '',
      label: '',
      packageSize: 0,
      appVersion: '1.2',
      targetBinaryRange: '*',
      shouldRunBinaryVersion: true,
      updateAppVersion: false,
    });
  });

  it('up to date: a release fits, so the binary is not what to run', () => {
    const info = updateInfoOf({ ...base, served: null, releases: [release('v1', null)] });
    expect(info).toMatchObject({ isAvailable: false, shouldRunBinaryVersion: false, targetBinaryRange: '*' });
  });

  it('a newest release for a newer binary asks for a store update, naming its range', () => {
    const info = updateInfoOf({ ...base, served: null, releases: [release('v2', '^2.0.0')] });
    expect(info).toMatchObject({
      updateAppVersion: true,
      appVersion: '^2.0.0',
      targetBinaryRange: '^2.0.0',
      shouldRunBinaryVersion: true,
    });
  });

  it('a device newer than every range is not sent to the store', () => {
    const info = updateInfoOf({ ...base, served: null, releases: [release('v1', '1.0.x')] });
    expect(info).toMatchObject({ updateAppVersion: false, appVersion: '1.2', targetBinaryRange: '1.0.x' });
  });

  it('a release for a native fingerprint never fits a CodePush device', () => {
    const info = updateInfoOf({ ...base, served: null, releases: [release('v1', null, 'shell-1')] });
    expect(info.shouldRunBinaryVersion).toBe(true);
  });

  it('at the device cap: no update, and no advice either', () => {
    const info = updateInfoOf({
      ...base,
      admitted: false,
      served: null,
      releases: [release('v2', '^2.0.0')],
    });
    expect(info).toMatchObject({
      isAvailable: false,
      updateAppVersion: false,
      shouldRunBinaryVersion: false,
    });
  });
});
