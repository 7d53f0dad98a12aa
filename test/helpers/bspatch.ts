import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
// @ts-expect-error seek-bzip ships no types: decode(Buffer) -> Buffer.
import Bunzip from 'seek-bzip';

/**
 * A bspatch written apart from the program that makes our patches, reading the format exactly as the
 * classic bspatch.c that expo-updates vendors does: the `BSDIFF40` header, three sign-magnitude
 * little-endian lengths (control, diff, new size), then three bzip2 streams; each control triple adds
 * diff bytes to the old file, copies extra bytes and seeks the old file. Every check bspatch.c makes
 * ("Corrupt patch") throws here.
 */
export function bspatch(old: Buffer, patch: Buffer): Buffer {
  if (patch.length < 32) throw new Error('Corrupt patch: shorter than its header');
  if (patch.subarray(0, 8).toString('latin1') !== 'BSDIFF40') throw new Error('Corrupt patch: not BSDIFF40');
  const ctrlLen = offtin(patch, 8);
  const diffLen = offtin(patch, 16);
  const newSize = offtin(patch, 24);
  if (ctrlLen < 0 || diffLen < 0 || newSize < 0) throw new Error('Corrupt patch: negative length');
  if (32 + ctrlLen + diffLen > patch.length) throw new Error('Corrupt patch: lengths past the end');
  const ctrl = Bunzip.decode(patch.subarray(32, 32 + ctrlLen)) as Buffer;
  const diff = Bunzip.decode(patch.subarray(32 + ctrlLen, 32 + ctrlLen + diffLen)) as Buffer;
  const extra = Bunzip.decode(patch.subarray(32 + ctrlLen + diffLen)) as Buffer;

  const out = Buffer.alloc(newSize);
  let newPos = 0;
  let oldPos = 0;
  let ctrlPos = 0;
  let diffPos = 0;
  let extraPos = 0;
  while (newPos < newSize) {
    if (ctrlPos + 24 > ctrl.length) throw new Error('Corrupt patch: control block ends early');
    const add = offtin(ctrl, ctrlPos);
    const copy = offtin(ctrl, ctrlPos + 8);
    const seek = offtin(ctrl, ctrlPos + 16);
    ctrlPos += 24;
    if (add < 0 || newPos + add > newSize) throw new Error('Corrupt patch: add past the new size');
    if (diffPos + add > diff.length) throw new Error('Corrupt patch: diff block ends early');
    for (let i = 0; i < add; i++) {
      const o = oldPos + i;
      out[newPos + i] = (diff[diffPos + i]! + (o >= 0 && o < old.length ? old[o]! : 0)) & 0xff;
    }
    newPos += add;
    oldPos += add;
    diffPos += add;
    if (copy < 0 || newPos + copy > newSize) throw new Error('Corrupt patch: copy past the new size');
    if (extraPos + copy > extra.length) throw new Error('Corrupt patch: extra block ends early');
    extra.copy(out, newPos, extraPos, extraPos + copy);
    newPos += copy;
    extraPos += copy;
    oldPos += seek;
  }
  return out;
}

/** bspatch.c's offtin: 8 bytes little-endian magnitude, sign in the top bit of the last byte. */
function offtin(buf: Buffer, at: number): number {
  const magnitude = buf.readBigUInt64LE(at) & 0x7fff_ffff_ffff_ffffn;
  const value = Number(magnitude);
  return (buf[at + 7]! & 0x80) !== 0 ? -value : value;
}

const run = promisify(execFile);

/** The same patch applied by Debian's `bspatch` program, the reference reader of the format. */
export async function debianBspatch(old: Buffer, patch: Buffer): Promise<Buffer> {
  const dir = await mkdtemp(join(tmpdir(), 'ota-bspatch-'));
  try {
    await writeFile(join(dir, 'old'), old);
    await writeFile(join(dir, 'patch'), patch);
    await run('bspatch', [join(dir, 'old'), join(dir, 'new'), join(dir, 'patch')]);
    return await readFile(join(dir, 'new'));
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}
