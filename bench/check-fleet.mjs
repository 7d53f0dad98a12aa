// The realistic fleet of bench/check.mjs, written with SQL: workspaces on every plan, several apps each,
// release histories with a rolled-back release, staged rollouts, a beta channel, a fingerprinted release,
// one hobby workspace already at its device cap, and 50,000 device ids spread over the apps.
import { createHash, randomBytes, randomUUID } from 'node:crypto';

const PLANS = ['hobby', 'pro', 'team'];
const WORKSPACES_PER_PLAN = 3;
const APPS_PER_WORKSPACE = 2;

const sha = (text) => createHash('sha256').update(text).digest('hex');

async function insertRelease(db, app, spec) {
  const bundle = sha(`${app.id}:${spec.version}:${spec.channel}`);
  await db.query('INSERT INTO bundles (app_id, sha256, size) VALUES ($1, $2, $3) ON CONFLICT DO NOTHING', [
    app.id,
    bundle,
    spec.size,
  ]);
  const { rows } = await db.query(
    `INSERT INTO releases (workspace_id, app_id, version, channel, rollout_pct, mandatory, notes, sha256, size,
                           fingerprint, active, crc32)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12) RETURNING id`,
    [
      app.workspaceId,
      app.id,
      spec.version,
      spec.channel,
      spec.rolloutPct,
      spec.mandatory ?? false,
      spec.notes ?? `Release ${spec.version}`,
      bundle,
      spec.size,
      spec.fingerprint ?? null,
      spec.active ?? true,
      // The bytes are not stored: a stand-in CRC32 (what a push computes) for the Capacitor plugins reading one.
      bundle.slice(0, 8),
    ],
  );
  return rows[0].id;
}

/** Seeds the fleet; returns the apps (with their releases) and the workspace to hold at its cap. */
export async function seedFleet(db) {
  const apps = [];
  for (const plan of PLANS) {
    for (let w = 0; w < WORKSPACES_PER_PLAN; w++) {
      const email = `bench-${plan}-${w}-${randomBytes(3).toString('hex')}@example.com`;
      const { rows: users } = await db.query(
        `INSERT INTO users (email, password_hash) VALUES ($1, 'x') RETURNING id`,
        [email],
      );
      const { rows: ws } = await db.query(
        `INSERT INTO workspaces (name, plan, owner_id) VALUES ($1, $2, $3) RETURNING id`,
        [`${plan} ${w}`, plan, users[0].id],
      );
      await db.query(
        `INSERT INTO members (workspace_id, email, user_id, role) VALUES ($1, $2, $3, 'owner')`,
        [ws[0].id, email, users[0].id],
      );
      for (let a = 0; a < APPS_PER_WORKSPACE; a++) {
        const { rows } = await db.query(
          `INSERT INTO apps (workspace_id, name) VALUES ($1, $2) RETURNING id`,
          [ws[0].id, `${plan}-${w}-app-${a}`],
        );
        apps.push({ id: rows[0].id, workspaceId: ws[0].id, plan, index: w, releases: {} });
      }
    }
  }

  for (const [i, app] of apps.entries()) {
    const r = app.releases;
    const size = 2_000_000 + i * 1000;
    // History: four full releases, the newest of which was rolled back.
    for (let v = 1; v <= 3; v++) {
      r[`v${v}`] = await insertRelease(db, app, {
        version: `1.${v}.0`,
        channel: 'production',
        rolloutPct: 100,
        size,
      });
    }
    await insertRelease(db, app, {
      version: '1.4.0',
      channel: 'production',
      rolloutPct: 100,
      size,
      active: false,
    });
    if (app.plan !== 'hobby') {
      // A staged rollout on top of the stable release, and a beta channel.
      r.staged = await insertRelease(db, app, {
        version: '1.5.0',
        channel: 'production',
        rolloutPct: 20,
        size,
      });
      r.beta = await insertRelease(db, app, {
        version: '2.0.0-beta.1',
        channel: 'beta',
        rolloutPct: 100,
        size,
      });
    }
    if (app.plan === 'team' && app.index === 0) {
      r.native = await insertRelease(db, app, {
        version: '1.6.0',
        channel: 'production',
        rolloutPct: 100,
        size,
        fingerprint: 'shell-2',
        mandatory: true,
      });
    }
  }
  const capped = apps.find((a) => a.plan === 'hobby' && a.index === 0);
  return { apps, capped };
}

/**
 * 50,000 device ids (UUIDs, as SDKs make them) spread over the apps: the capped hobby app gets 300 (100
 * already counted, 200 over the cap), the other hobby apps 40 each, the rest split between pro and team.
 * Each device sends the module it runs: the stable release, an older one, or none yet.
 */
export function deviceBodies(fleet, total = 50_000) {
  const { apps, capped } = fleet;
  const bodies = [];
  const countedAtCap = [];
  const add = (app, n) => {
    for (let i = 0; i < n; i++) {
      const device = randomUUID();
      if (app === capped && countedAtCap.length < 100) countedAtCap.push(device);
      const body = { app_id: app.id, device_id: device, platform: i % 2 ? 'ios' : 'android' };
      const roll = i % 10;
      if (roll < 5) body.current_module_id = app.releases.v3;
      else if (roll < 8) body.current_module_id = app.releases.v2;
      if (app.releases.beta && i % 10 === 9) body.channel = 'beta';
      if (app.releases.native) body.fingerprint = i % 2 ? 'shell-2' : 'shell-1';
      bodies.push(JSON.stringify(body));
    }
  };
  add(capped, 300);
  const otherHobby = apps.filter((a) => a.plan === 'hobby' && a !== capped);
  for (const app of otherHobby) add(app, 40);
  const paid = apps.filter((a) => a.plan !== 'hobby');
  const rest = total - bodies.length;
  for (const [i, app] of paid.entries()) {
    add(app, Math.floor(rest / paid.length) + (i < rest % paid.length ? 1 : 0));
  }
  // Interleave, so every stretch of requests mixes apps, plans and outcomes.
  for (let i = bodies.length - 1; i > 0; i--) {
    const j = Math.floor(Math.random() * (i + 1));
    [bodies[i], bodies[j]] = [bodies[j], bodies[i]];
  }
  return { bodies, countedAtCap };
}
