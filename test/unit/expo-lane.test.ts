import { IncomingMessage, ServerResponse } from 'node:http';
import { Socket } from 'node:net';
import { describe, expect, it } from 'vitest';
import { expoManifestLane } from '../../src/expo/expo.lane.js';
import type { ManifestAnswer } from '../../src/expo/expo-updates.service.js';
import { DeviceLimiter } from '../../src/http/device-limiter.js';

// A lane writes its answer once the service's promise settles. A throw while writing it (here a header
// value Node refuses) must reach the route as the lane's failure: left inside the promise's callback it
// became an unhandled rejection, which ends a Node process.
const APP = '0b9c1a52-7e3d-4f60-8a1b-2c3d4e5f6a7b';

function laneAnswering(answer: ManifestAnswer) {
  return expoManifestLane({
    path: '/api/v1/expo/:app_id/manifest',
    expoUpdates: { answer: async () => answer },
    devices: new DeviceLimiter({ perMinute: 100 }),
  });
}

function request() {
  const req = new IncomingMessage(new Socket());
  req.headers = { 'expo-protocol-version': '1', 'expo-platform': 'ios', 'expo-runtime-version': '1.0.0' };
  return { req, res: new ServerResponse(req) };
}

describe('the Expo manifest lane, when writing its answer throws', () => {
  it('hands the request to the route with the error, before any byte was sent', async () => {
    const lane = laneAnswering({
      status: 200,
      contentType: 'application/json',
      body: Buffer.from('{}'),
      signature: 'sig="a\nb"',
    });
    const { req, res } = request();
    const failure = await new Promise<{ error: unknown } | undefined>((resolve) =>
      lane.serve({}, req, res, '10.0.0.1', resolve, APP),
    );
    expect((failure!.error as { code?: string }).code).toBe('ERR_INVALID_CHAR');
    expect(res.headersSent).toBe(false);
    expect(lane.served).toBe(0);
  });
});
