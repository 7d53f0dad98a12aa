// The lockout phase of `npm run bench:hostile`: can anyone keep an owner out by guessing its password?
// Many addresses (spread over many /24 networks, as a botnet or a cloud's address pool would be) send wrong
// passwords for the owner's e-mail without pause, on a few connections; meanwhile the owner signs in with
// the right password once a second from a network of its own. Measured: how many of the owner's sign-ins
// got in, how soon the first did, their latency (password hashing is CPU-bound, so a guessing run costs the
// owner time even when it is never refused), and the guessers' answers (401: a guess was checked; 429: it
// was refused by the failure limits). Goal: every one of the owner's sign-ins answered 200.
import { randomBytes } from 'node:crypto';
import { send } from './hostile-traffic.mjs';

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

function percentile(sorted, p) {
  if (sorted.length === 0) return null;
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];
}

/**
 * Runs the phase against the API behind `pool` (TRUST_PROXY=loopback: X-Forwarded-For names the address).
 * `networks` /24s of `hostsPerNetwork` addresses each guess for `seconds`, on `connections` connections.
 */
export async function lockoutPhase(call, pool, options, log) {
  const { seconds = 20, networks = 64, hostsPerNetwork = 4, connections = 4 } = options;
  const email = `bench-owner-${randomBytes(4).toString('hex')}@example.com`;
  const password = randomBytes(12).toString('hex');
  const made = await call('setup', 'POST', '/auth/signin', { json: { email, password } });
  if (!made.body?.token) throw new Error('the owner account was not made');

  const guessers = [];
  for (let n = 0; n < networks; n++)
    for (let h = 1; h <= hostsPerNetwork; h++) guessers.push(`100.${64 + (n >> 8)}.${n & 0xff}.${h}`);
  const guesses = {};
  let stop = false;
  let seq = 0;
  const guess = async () => {
    while (!stop) {
      const address = guessers[seq++ % guessers.length];
      const answer = await send(
        pool,
        '/api/v1/auth/signin',
        { email, password: `guess-${seq}-wrong` },
        address,
      ).catch(() => null);
      const status = answer ? String(answer.status) : 'network';
      guesses[status] = (guesses[status] ?? 0) + 1;
    }
  };

  const owner = [];
  const started = Date.now();
  const signInAsOwner = async () => {
    while (!stop) {
      const t0 = Date.now();
      const answer = await send(pool, '/api/v1/auth/signin', { email, password }, '192.0.2.10').catch(
        () => null,
      );
      owner.push({ at_ms: t0 - started, status: answer ? answer.status : 'network', ms: Date.now() - t0 });
      await sleep(Math.max(0, 1000 - (Date.now() - t0)));
    }
  };

  log(
    `lockout: ${guessers.length} addresses on ${networks} networks guess the owner's password for ${seconds} s`,
  );
  const running = [...Array.from({ length: connections }, guess), signInAsOwner()];
  await sleep(seconds * 1000);
  stop = true;
  await Promise.all(running);

  const ok = owner.filter((o) => o.status === 200);
  const latencies = owner.map((o) => o.ms).sort((a, b) => a - b);
  const refused = owner.filter((o) => o.status !== 200);
  const result = {
    seconds,
    guessing: { addresses: guessers.length, networks, connections, answers: guesses },
    guesses_checked_per_s: Math.round(((guesses['401'] ?? 0) / seconds) * 10) / 10,
    owner: {
      attempts: owner.length,
      signed_in: ok.length,
      refused: refused.map((o) => o.status),
      first_success_after_ms: ok[0] ? ok[0].at_ms + ok[0].ms : null,
      latency_ms: {
        p50: percentile(latencies, 50),
        p95: percentile(latencies, 95),
        max: latencies.at(-1) ?? null,
      },
    },
  };
  const goals = { owner_never_refused: owner.length > 0 && refused.length === 0 };
  log(
    `lockout: owner in ${ok.length}/${owner.length} times (first after ${result.owner.first_success_after_ms} ms, ` +
      `p95 ${result.owner.latency_ms.p95} ms); guessers ${JSON.stringify(guesses)}`,
  );
  return { result, goals };
}
