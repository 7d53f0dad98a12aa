/**
 * Generated from the service's OpenAPI document by openapi-typescript; do not edit. The client's types
 * (types.ts) are read from here, so they follow the routes' schemas. After a change of a route schema:
 *   npx vitest run test/integration/openapi/client-types.test.ts -u
 */
/* biome-ignore-all format: generated */
/* biome-ignore-all lint: generated */

export interface paths {
    "/api/v1/apps": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The apps of the caller’s workspace, newest first */
        get: operations["getApps"];
        put?: never;
        /** Create an app in the caller’s workspace; developer or above. Names are unique per workspace (409) */
        post: operations["postApps"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/apps/{app_id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** An app with its channels (production always) and registered fingerprints */
        get: operations["getAppsById"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/apps/{app_id}/alerts": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The app's error-spike alert settings (defaults when never set) */
        get: operations["getAppsAlerts"];
        /** Change error-spike alert settings (any subset of the fields); developer or above */
        put: operations["putAppsAlerts"];
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/apps/{app_id}/bundles": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        /**
         * Upload bundle bytes (application/octet-stream); stored once per content (sha256); developer or above
         * @description Over BUNDLE_MAX_BYTES: 413. A zip whose files inflate past BUNDLE_MAX_UNZIPPED_BYTES together: 400 `bundle_too_large_unzipped`. An empty body: 400 `empty_bundle`. With `SMTP_URL` set, an account that has not yet confirmed its e-mail address (the link e-mailed when it was made) gets 403 `email_unverified`.
         */
        put: operations["putAppsBundles"];
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/apps/{app_id}/channels": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The app's channels (production, and every channel that has a release) and their settings */
        get: operations["listChannels"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/apps/{app_id}/channels/{name}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post?: never;
        /**
         * Delete a channel and withdraw its releases (a pull request's preview); developer or above
         * @description Withdraws every release of the channel (they stay in the history, inactive) and removes the channel with its setting, the devices pinned to it and its CodePush deployment keys (a build with one then gets 404 `deployment_key_not_found`). A device still asking for the channel (the update check's `channel`, `expo-channel-name`, Capacitor's `defaultChannel` or stored channel) is served what production serves, until a push to the same name makes it a channel again. production cannot be deleted (400); a channel with no release is a 404. Audited `channel.delete` (details: the channel, the withdrawn releases, how many pinned devices and keys went).
         */
        delete: operations["deleteChannel"];
        options?: never;
        head?: never;
        /**
         * Change whether devices may move themselves onto a channel; developer or above
         * @description Governs a device that moves itself at run time (Capacitor `channel_self` and `defaultChannel`): only onto a channel that allows it. The channel an app is built for (the update check's `channel`, `expo-channel-name`, a deployment key) is served whatever this says. production always allows it (false is a 400); a channel with no release is a 404; other channels need a plan with channels (402). Audited `channel.change`; the same value again records nothing.
         */
        patch: operations["updateChannel"];
        trace?: never;
    };
    "/api/v1/apps/{app_id}/deployment-keys": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The deployment keys of an app, oldest first */
        get: operations["getAppsDeploymentKeys"];
        put?: never;
        /**
         * Create a CodePush deployment key for a channel of the app; developer or above
         * @description The key goes into the app (`CodePushDeploymentKey`) with the service as `CodePushServerURL`; update checks with it are answered from the channel. A channel other than production needs a plan with channels (402 on hobby).
         */
        post: operations["postAppsDeploymentKeys"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/apps/{app_id}/deployment-keys/{key}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post?: never;
        /** Delete a deployment key; devices using it are refused at once; developer or above */
        delete: operations["deleteAppsDeploymentKeysById"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/apps/{app_id}/device-overrides": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The app's device overrides, newest first; each release override says whether the device can be served its release */
        get: operations["listDeviceOverrides"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/apps/{app_id}/device-overrides/{device_id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        /**
         * Pin a device to a channel or to a release of the app; developer or above
         * @description Every device protocol honours it by its device id (`device_id`, `client_unique_id`, `eas-client-id`, Capacitor `device_id`). A channel other than production needs a plan with channels (402; for `module_id`, the release's channel); a channel no release was pushed to is 404 `channel_not_found`, naming the app's channels in `channels`. At most 1,000 per app (409 `too_many_overrides`); a device pinned again is replaced. Audited `device.override`.
         */
        put: operations["putDeviceOverride"];
        post?: never;
        /** Remove a device override; developer or above (audited `device.override_remove`) */
        delete: operations["deleteDeviceOverride"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/apps/{app_id}/fingerprints": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Register a native-shell fingerprint (idempotent); developer or above */
        post: operations["postAppsFingerprints"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/apps/{app_id}/modules": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Releases of an app, newest first, with their statistics */
        get: operations["listReleases"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/apps/{app_id}/stats": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Time series of update checks, downloads, activations, errors and distinct devices per module */
        get: operations["getAppStats"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/audit": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * A page of the caller's workspace's audit log, newest first (team plan)
         * @description Always the credential's own workspace; any role may read it. Filters: `action` (an exact action) and `app_id` (an app of the caller's workspace; another workspace's, unknown or malformed: 403). `limit` 1-200 (default 50) and `offset` >= 0 (default 0); anything else is a 400. An offset past the end is an empty page; `next_offset` is null on the last page. Plans other than team: 402.
         */
        get: operations["getAudit"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/auth/password": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Change the caller's password; every other session of the user ends
         * @description Identity tokens only (an API key: 403 `user_token_required`). Every identity token of the user, in every workspace, stops working, this one included: the answer carries a new token for the same workspace. Open password-reset links stop working. API keys are not sessions and stay. Wrong current password: 403 `wrong_password`.
         */
        post: operations["postAuthPassword"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/auth/password-reset": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * E-mail a password-reset link
         * @description Always 202, whether or not an account has the e-mail, so the answer tells nobody which ones do. When one does, a one-time link to the console page that sets a new password is e-mailed (it works for `PASSWORD_RESET_TTL_SECONDS`, 1 hour by default); at most `PASSWORD_RESETS_PER_HOUR` (3) per e-mail address and client network (IPv4 /24, IPv6 /48) and hour are sent, so nobody elsewhere can use up the owner's allowance. A new link voids open links older than 10 minutes, never a fresher one. Needs `SMTP_URL`: without a mail server the answer is 403 `password_reset_unavailable`, and the operator makes a link with `npm run admin -- reset-password <email>`.
         */
        post: operations["postAuthPasswordReset"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/auth/password-reset/confirm": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Set a new password with a reset link
         * @description The token of the link sets the new password and ends every credential made before it: every identity token of the account (sign in again) and every API key the user made, in any workspace (listed in the answer, each audited `api_key.revoke`), so whoever held the account before keeps nothing. Unknown token: 404 `reset_not_found`; used, replaced by a newer link or password change, or expired: 410.
         */
        post: operations["postAuthPasswordResetConfirm"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/auth/signin": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Sign in; the first sign-in creates the account and its personal workspace
         * @description An unknown e-mail makes an account (and its personal workspace) unless `create` is false (then 404 `account_not_found`) or the server's `SIGNUP` setting refuses it (`invite-only` makes accounts only for e-mails with a pending invitation, `closed` none). Where SIGNUP refuses it, an unknown e-mail is answered exactly as a wrong password (401 `invalid_credentials`, `create: false` included), so the answer tells nobody which e-mails have accounts. Limited per client address (`RATE_LIMIT_SIGNIN_PER_MINUTE`), and failures per client network (IPv4 /24, IPv6 /48: `RATE_LIMIT_SIGNIN_FAILURES_PER_NETWORK`) and per e-mail and network (`RATE_LIMIT_SIGNIN_FAILURES_PER_ACCOUNT`) within `RATE_LIMIT_SIGNIN_FAILURE_WINDOW_MINUTES`: at a limit, sign-ins from that network (for that account, or for any) are a 429 with `Retry-After` until the window ends, the right password included. Failures from one network never refuse the right password from another network that has not failed.
         */
        post: operations["postAuthSignin"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/auth/signout": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Sign out: end this identity token, or with {everywhere: true} every token of the user
         * @description The token is refused from the next request on, by every API process. `everywhere` ends every identity token of the user, in every workspace (other users and the workspace's API keys are untouched). Identity tokens only: an API key gets 403.
         */
        post: operations["postAuthSignout"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/auth/token": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** An identity token for another workspace the user belongs to */
        post: operations["postAuthToken"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/auth/verify-email": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * E-mail a new link that proves the signed-in account owns its address
         * @description With `SMTP_URL` set, an account made by a first sign-in is e-mailed a one-time link and cannot create API keys, invite members or push releases until it is opened (403 `email_unverified`); it may sign in, read, make apps and change its password meanwhile. This sends a new link (202; nothing is sent when the address is proven already, as every account is on a server without a mail server). Identity tokens only (an API key: 403 `user_token_required`).
         */
        post: operations["postAuthVerifyEmail"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/auth/verify-email/confirm": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Prove an e-mail address with the token of its link
         * @description Unknown token: 404 `verification_not_found`; used or expired (a day): 410. A password reset by an e-mailed link proves the address too.
         */
        post: operations["postAuthVerifyEmailConfirm"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/bundles/{sha256}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Download a bundle by its sha256 (supports Range and If-None-Match)
         * @description With BLOB_STORE=s3: a 302 to the URL device answers carry (BUNDLE_BASE_URL, or a presigned URL).
         */
        get: operations["getBundlesById"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        /**
         * Download a bundle by its sha256 (supports Range and If-None-Match)
         * @description With BLOB_STORE=s3: a 302 to the URL device answers carry (BUNDLE_BASE_URL, or a presigned URL).
         */
        head: operations["headBundlesById"];
        patch?: never;
        trace?: never;
    };
    "/api/v1/capacitor/{app_id}/channel_self": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Capacitor listChannels (channelUrl)
         * @description The channels a device may join by itself, the info object as the query. A device moves itself only onto a channel that allows self-assignment (production always does). No credential.
         */
        get: operations["getCapacitorChannelSelf"];
        /**
         * Capacitor getChannel (channelUrl)
         * @description The channel the device is served from. A device moves itself only onto a channel that allows self-assignment (production always does). No credential.
         */
        put: operations["putCapacitorChannelSelf"];
        /**
         * Capacitor setChannel (channelUrl)
         * @description Asks to join `channel`. Plugins below 5.34.0, 6.34.0 and 7.34.0 have it stored, for a device the device cap admits and within CAPACITOR_CHANNEL_ASSIGNMENTS_PER_APP and …_PER_ADDRESS_PER_HOUR (else `{error: "device_cap" | "new_device_limit" | "app_full" | "address_limit", message}`); later plugins keep it themselves. A device moves itself only onto a channel that allows self-assignment (production always does). No credential.
         */
        post: operations["postCapacitorChannelSelf"];
        /**
         * Capacitor unsetChannel (channelUrl, plugins before 7.34)
         * @description Forgets the channel stored for the device. The info object as the query, or as a JSON body (as plugins before 7.34 send it). No credential.
         */
        delete: operations["deleteCapacitorChannelSelf"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/capacitor/{app_id}/stats": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Capacitor statistics (statsUrl)
         * @description One statistic or a batch of up to 200 from one device. `download_complete` counts a download, `set` an activation, `update_fail` and `app_launch_timeout` an error of the release `version_name` names on the channel the device is served from; `download_fail`, `checksum_fail` and `decrypt_fail` an error of the release the service last offered the device, whatever `version_name` says (after an answer that offered nothing: stored, no release's error). Each once per device, release and kind. Other actions are taken and not counted.
         */
        post: operations["postCapacitorStats"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/capacitor/{app_id}/updates": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Capacitor update check (updateUrl)
         * @description The plugin's info object. An update `{version, url, checksum, session_key?, manifest?}`: the newest release of the device's channel its bucket and version_build admit, that it can verify (a device sending key_id gets only releases signed and encrypted with that key, never an unsigned checksum). `{version: "builtin"}` sends a device whose release was rolled back, with nothing else to run, back to the bundle built into the app. Anything else is an answer with `error` and `kind`. No credential.
         */
        post: operations["postCapacitorUpdates"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/devices/events": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Post a batch of 1-1000 device events (download, activation, error); no credential
         * @description Validated whole (400 names the first bad event). Each event must name a release of the app in `module_id`, or none for the embedded bundle; events naming another module are refused one by one and listed in `refused`, the others are taken. 202 means the events taken are durable. A NUL or unpaired surrogate in `message` is stored as U+FFFD. Limited per app and device and per client address (429).
         */
        post: operations["postDevicesEvents"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/expo/{app_id}/assets/{file}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * An asset of an Expo release of the app (immutable; supports Range and If-None-Match)
         * @description The URLs come from manifests: `<sha256>.<extension>`, a file some Expo release of the app names (404 otherwise). Served as a download that no browser runs (docs/operations/security.md). A launch asset asked for with `A-IM: bsdiff` and `Expo-Current-Update-ID` answers 226 and a patch from that update when one was made (docs/reference/delta-updates.md), the full bytes otherwise.
         */
        get: operations["getExpoAppAsset"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        /**
         * An asset of an Expo release of the app (immutable; supports Range and If-None-Match)
         * @description The URLs come from manifests: `<sha256>.<extension>`, a file some Expo release of the app names (404 otherwise). Served as a download that no browser runs (docs/operations/security.md). A launch asset asked for with `A-IM: bsdiff` and `Expo-Current-Update-ID` answers 226 and a patch from that update when one was made (docs/reference/delta-updates.md), the full bytes otherwise.
         */
        head: operations["headGetExpoAppAsset"];
        patch?: never;
        trace?: never;
    };
    "/api/v1/expo/{app_id}/manifest": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Expo Updates protocol v1: the manifest (or directive) for an expo-updates client
         * @description Set app.json `updates.url` to this URL. Answers multipart/mixed (a `manifest` or `directive` part) when the client accepts it, else the JSON manifest (application/expo+json or application/json) with `expo-signature`; 204 when there is nothing to do; 406 for another protocol version or an accept that none of those meets. No credential.
         */
        get: operations["getExpoManifest"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/expo/assets/{file}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * An asset named by a manifest pushed before asset URLs named their app
         * @description Kept for devices holding such a manifest: a file some Expo release names (404 otherwise), served as the app-scoped URL serves it. New manifests use /expo/{app_id}/assets/{file}.
         */
        get: operations["getExpoAssetsById"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        /**
         * An asset named by a manifest pushed before asset URLs named their app
         * @description Kept for devices holding such a manifest: a file some Expo release names (404 otherwise), served as the app-scoped URL serves it. New manifests use /expo/{app_id}/assets/{file}.
         */
        head: operations["headExpoAssetsById"];
        patch?: never;
        trace?: never;
    };
    "/api/v1/expo/releases": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Push an `npx expo export` (its uploaded files) as one release; developer or above
         * @description Without `key_id`: 201, the release. With `key_id`: 202, a draft holding the exact bytes to sign (each platform's manifest and the rollBackToEmbedded directive); the release exists once PUT /modules/{id}/signatures brings every signature. With `SMTP_URL` set, an account that has not yet confirmed its e-mail address (the link e-mailed when it was made) gets 403 `email_unverified`.
         */
        post: operations["postExpoReleases"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/invitations/accept": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Accept an invitation (the invitee, signed in)
         * @description Needs the identity token of the user whose e-mail was invited (any workspace of that user); the member becomes `active`, keeping its member id and role, and the user can then switch to the workspace with POST /auth/token. Another e-mail: 403 `invitation_email_mismatch`; an API key: 403 `user_token_required`; unknown token: 404; used, replaced, withdrawn or expired: 410.
         */
        post: operations["postInvitationsAccept"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/me": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The caller, its workspace and role */
        get: operations["getMe"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/modules": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Push a release of an uploaded bundle to a channel; developer or above. A version the app already has on the channel is a 409
         * @description With `SMTP_URL` set, an account that has not yet confirmed its e-mail address (the link e-mailed when it was made) gets 403 `email_unverified`.
         */
        post: operations["pushRelease"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/modules/{module_id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** A release with its statistics */
        get: operations["getRelease"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/modules/{module_id}/pause": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Pause a release: no device that does not run it yet is offered it; devices that run it keep it; developer or above
         * @description Pausing a paused release is a 200 that records nothing. Audited `rollout.change` with `details.old.paused` / `details.new.paused`; webhook `rollout.changed` with `paused`. Every plan.
         */
        post: operations["pauseRelease"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/modules/{module_id}/promote": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Promote a release to another channel: a new release with the same bytes and metadata, no upload; developer or above
         * @description The new release has the same bytes, assets, version, fingerprint or runtime version, `target_binary_range`, `mandatory` and Capacitor fields, its own statistics, and `promoted_from`. As for a push: plan gates (402), a version already on the channel is a 409 `version_exists`, audited `module.push` (with `details.promoted_from`), webhook `release.pushed` (with `promoted_from`). A signed release needs `key_id`: the answer is then a draft (202) to sign on your machine and complete with PUT /modules/{id}/signatures; the service never signs. With `SMTP_URL` set, an account that has not yet confirmed its e-mail address (the link e-mailed when it was made) gets 403 `email_unverified`.
         */
        post: operations["promoteRelease"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/modules/{module_id}/resume": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Resume a paused release at its rollout; developer or above
         * @description Resuming a release that is not paused is a 200 that records nothing. Audited and announced as a pause is.
         */
        post: operations["resumeRelease"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/modules/{module_id}/rollback": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Roll back an active release; the newest earlier active release of its channel serves */
        post: operations["rollBackRelease"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/modules/{module_id}/rollout": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        /** Change a release’s rollout percentage in place (0-100); developer or above */
        put: operations["changeRollout"];
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        /** Change a release’s rollout percentage in place (0-100); developer or above */
        patch: operations["changeRolloutPatch"];
        trace?: never;
    };
    "/api/v1/modules/{module_id}/signatures": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        /** Complete a signed push with a signature for each part of its draft; developer or above */
        put: operations["putModulesSignatures"];
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/modules/compatibility": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Whether any device seen lately could run a release with these requirements (nothing is written)
         * @description Counts the devices whose latest update check in the last DEVICE_WINDOW_DAYS was on `channel` (default production), and of those the ones a release with this `fingerprint` (or Expo `runtime_version`) and `target_binary_range` could reach: the range must admit the native version the device sent, the fingerprint must be that of the release the device runs (a device running the binary's own bundle has none known). `ota release --fail-if-incompatible` asks this before a push and stops (exit 3) when `compatible` is false. Any role.
         */
        post: operations["postModulesCompatibility"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/modules/drafts": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Start a signed push of an uploaded bundle; developer or above
         * @description The fields of POST /modules plus `key_id`. Answers the canonical manifest to sign (part `check`); the release exists once PUT /modules/{id}/signatures brings the signature, and /updates/check then sends it with the release. With `SMTP_URL` set, an account that has not yet confirmed its e-mail address (the link e-mailed when it was made) gets 403 `email_unverified`.
         */
        post: operations["postModulesDrafts"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/modules/lookup": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Releases of the workspace named by an exact version or an id prefix (6+ characters), newest first, at most 20; `app_id` and `channel` narrow the search */
        get: operations["lookupReleases"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/modules/preflight": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Ask whether a push would be taken before uploading its bundle: role, app, plan gates (402), a version already on the channel (409), the size limit (413); developer or above */
        post: operations["preflightRelease"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/updates/check": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * A device asks whether a release is waiting for it
         * @description Answers the newest active release of the channel whose rollout bucket admits the device and whose fingerprint (if any) matches and whose target_binary_range (if any) admits `app_version`, or `{update: null}`. A device refused by its workspace device cap gets `{update: null, reason: "device_cap"}`; with RATE_LIMIT_NEW_DEVICES_PER_ADDRESS_PER_HOUR set (off by default), a device new to a capped workspace beyond that many from its client address this hour gets `reason: "new_device_limit"`. Ids are read in lower case; `urn:uuid:` and braced forms are a 400. No credential.
         */
        post: operations["checkForUpdate"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/workspaces/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * The workspace and its plan
         * @description Any member or API key of the workspace. Another workspace: 403.
         */
        get: operations["getWorkspacesById"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/workspaces/{id}/api-keys": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** List live API keys (never the key itself) */
        get: operations["getWorkspacesApiKeys"];
        put?: never;
        /**
         * Create an API key (shown only in this response); owner or admin
         * @description The key belongs to the member who makes it (made with an API key: to that key's member) and acts as actor `api-key` with `role` (default admin). Removing that member revokes it; a role change lowers it to the new role. With `SMTP_URL` set, an account that has not yet confirmed its e-mail address (the link e-mailed when it was made) gets 403 `email_unverified`.
         */
        post: operations["postWorkspacesApiKeys"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/workspaces/{id}/api-keys/{key_id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post?: never;
        /** Revoke an API key; it stops working at once */
        delete: operations["deleteWorkspacesApiKeysById"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/workspaces/{id}/audit/verify": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Verify the workspace's audit hash chain (owner, team plan)
         * @description Recomputes every entry hash in order and reports the first broken entry: `hash_mismatch` when the entry itself was altered, `prev_hash_mismatch` when the link to the entry before it is broken (an earlier entry altered, removed or inserted). Other roles and API keys: 403; plans other than team: 402.
         */
        get: operations["getWorkspacesAuditVerify"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/workspaces/{id}/devices": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * The devices counted against the device cap, most recently seen first
         * @description Owners and admins (users and admin API keys) of the workspace; other roles 403, another workspace's id 403. The devices seen within the active window (`window_days`), each with its last check. `limit` 1-200 (default 50), `offset` >= 0; `next_offset` is null on the last page. On a plan without a cap nothing is counted, so the list is empty (apart from devices counted under an earlier capped plan, until they age out).
         */
        get: operations["getWorkspacesDevices"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/workspaces/{id}/devices/{device_id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post?: never;
        /**
         * Release a counted device: its place under the device cap is free at once
         * @description Owners and admins. Audited as `device.release` with the device id and its last check. The device is not banned: if it checks again it is a new device, counted while there is room. A device that is not counted: 404 `device_not_counted`.
         */
        delete: operations["deleteWorkspacesDevicesById"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/workspaces/{id}/ingest": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Device events of the workspace's apps that ingest could not store (owner or admin)
         * @description Events the API accepted but ClickHouse refused as data are set aside in a dead-letter stream with a log line, never retried in a loop and never holding up other events. This counts them per app, since ever (the entries themselves are kept for operators, capped). Normally all zero.
         */
        get: operations["getWorkspacesIngest"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/workspaces/{id}/members": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List members and pending invitations
         * @description Any member or API key of the workspace. The owner comes first, then by invitation time.
         */
        get: operations["getWorkspacesMembers"];
        put?: never;
        /**
         * Invite a member (owner or admin)
         * @description The member is `invited` until the invitee, signed in with this e-mail (an account it has, or one it makes), accepts the one-time token of `invitation` (POST /invitations/accept); it then becomes `active` with this member id. Nobody joins by signing in alone. `invitation.url` is the console page that accepts it; with SMTP_URL set it is also e-mailed. The token expires after INVITATION_TTL_SECONDS (7 days). Inviting an e-mail that is still invited issues a new token (and role) and voids the old one; an active member is a 409. The hobby plan allows one member: inviting a second answers 402 with an upgrade message. Audited as `member.invite`. With `SMTP_URL` set, an account that has not yet confirmed its e-mail address (the link e-mailed when it was made) gets 403 `email_unverified`.
         */
        post: operations["postWorkspacesMembers"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/workspaces/{id}/members/{member_id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post?: never;
        /**
         * Remove a member or withdraw an invitation (owner or admin)
         * @description The member's tokens stop working at once; an invited member's token is withdrawn (410 on accept). The owner cannot be removed (409). Audited as `member.remove`.
         */
        delete: operations["deleteWorkspacesMembersById"];
        options?: never;
        head?: never;
        /**
         * Change a member's role (owner or admin)
         * @description Takes effect at once, also on tokens already issued. The owner role is never granted, changed or removed here: an admin who tries gets 403, the owner 409. Audited as `member.role_change` with old and new role; setting the current role changes nothing.
         */
        patch: operations["patchWorkspacesMembersById"];
        trace?: never;
    };
    "/api/v1/workspaces/{id}/plan": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        /**
         * Change the plan (owner only)
         * @description Sets the plan to hobby, pro or team. Owner only (API keys never hold the owner role): other roles 403. A real change is recorded as `plan.change` with old and new values and takes effect at once for every plan gate and device cap; setting the current plan again changes and records nothing.
         */
        put: operations["putWorkspacesPlan"];
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        /**
         * Change the plan (owner only)
         * @description Sets the plan to hobby, pro or team. Owner only (API keys never hold the owner role): other roles 403. A real change is recorded as `plan.change` with old and new values and takes effect at once for every plan gate and device cap; setting the current plan again changes and records nothing.
         */
        patch: operations["patchWorkspacesPlan"];
        trace?: never;
    };
    "/api/v1/workspaces/{id}/usage": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Usage against the plan: distinct devices and members, with their caps
         * @description Any member or API key of the workspace. `device_cap` and `member_cap` are null when the plan has no limit; `members` counts the owner, active members and pending invitations.
         */
        get: operations["getWorkspacesUsage"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/workspaces/{id}/webhooks": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** List the workspace's webhooks (never the secret) */
        get: operations["listWebhooks"];
        put?: never;
        /** Register a webhook endpoint (HTTPS); the signing secret is shown only here */
        post: operations["createWebhook"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/workspaces/{id}/webhooks/{webhook_id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post?: never;
        /** Delete a webhook; delivery stops at once, scheduled retries included */
        delete: operations["deleteWebhook"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/workspaces/{id}/webhooks/{webhook_id}/deliveries": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Deliveries of a webhook, newest first */
        get: operations["listWebhookDeliveries"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/workspaces/{id}/webhooks/{webhook_id}/deliveries/{delivery_id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** One delivery with its body and every attempt */
        get: operations["getWebhookDelivery"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/workspaces/{id}/webhooks/{webhook_id}/deliveries/{delivery_id}/redeliver": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Send a finished delivery again (same delivery id and body) */
        post: operations["redeliverWebhookDelivery"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/workspaces/{id}/webhooks/{webhook_id}/test": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Send a sample `ping` delivery */
        post: operations["pingWebhook"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/healthz": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The process is up */
        get: operations["getHealthz"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/metrics": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * This process's metrics, for Prometheus
         * @description The Prometheus text format (docs/operations/metrics.md lists every series). Needs `Authorization: Bearer <OPERATOR_TOKEN>`: 401 without it, 404 when the service has no OPERATOR_TOKEN.
         */
        get: operations["getMetrics"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/readyz": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Postgres, Redis, ClickHouse and the blob store are reachable
         * @description To everyone: `{status: "ready"}`, or a 503 `not_ready` problem, and nothing else. With `Authorization: Bearer <OPERATOR_TOKEN>` also `checks` (each service: `ok` or why not) and `details` for operators. Failures are logged either way. Anonymous callers are answered from a probe at most a second old; operators get a fresh one.
         */
        get: operations["getReadyz"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/reportStatus/deploy": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * CodePush deploy status report (legacy camelCase path)
         * @description `DeploymentSucceeded` counts an activation of the release named by label, `DeploymentFailed` an error; once per device, release and kind. A report without a label (a new binary started) counts nothing. No credential.
         */
        post: operations["postReportStatusDeploy"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/reportStatus/download": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * CodePush download status report (legacy camelCase path)
         * @description Counts a download of the release named by label, once per device. No credential.
         */
        post: operations["postReportStatusDownload"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/updateCheck": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * CodePush update check (legacy camelCase path)
         * @description The deployment key names the app and channel; the answer is the newest release of the channel whose rollout bucket admits client_unique_id and whose target_binary_range admits app_version. An unknown or deleted key is a 404 problem. No credential.
         */
        get: operations["getUpdateCheck"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v0.1/public/codepush/report_status/deploy": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * CodePush deploy status report
         * @description `DeploymentSucceeded` counts an activation of the release named by label, `DeploymentFailed` an error; once per device, release and kind. A report without a label (a new binary started) counts nothing. No credential.
         */
        post: operations["postV01PublicCodepushReportStatusDeploy"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v0.1/public/codepush/report_status/download": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * CodePush download status report
         * @description Counts a download of the release named by label, once per device. No credential.
         */
        post: operations["postV01PublicCodepushReportStatusDownload"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v0.1/public/codepush/update_check": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * CodePush update check
         * @description The deployment key names the app and channel; the answer is the newest release of the channel whose rollout bucket admits client_unique_id and whose target_binary_range admits app_version. An unknown or deleted key is a 404 problem. No credential.
         */
        get: operations["getV01PublicCodepushUpdateCheck"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
}
export type webhooks = Record<string, never>;
export interface components {
    schemas: {
        App: {
            /** Format: date-time */
            created_at: string;
            /**
             * Format: uuid
             * @description UUID, 8-4-4-4-12 hex digits; upper case is read as lower case
             */
            id: string;
            name: string;
            /**
             * Format: uuid
             * @description UUID, 8-4-4-4-12 hex digits; upper case is read as lower case
             */
            workspace_id: string;
        };
        AppDetails: components["schemas"]["App"] & {
            channels: string[];
            fingerprints: {
                /** Format: date-time */
                created_at: string;
                fingerprint: string;
            }[];
        };
        AuditEntry: {
            action: string;
            /** @description the user's e-mail, or `api-key` for API-key calls */
            actor: string;
            app_id: string | null;
            /** Format: date-time */
            created_at: string;
            /** @description old and new values; for the actor `api-key`, also `api_key: {id, name, created_by: {id, email} | null}`, the key that made the change and its maker */
            details: {
                [key: string]: unknown;
            };
            /**
             * Format: uuid
             * @description UUID, 8-4-4-4-12 hex digits; upper case is read as lower case
             */
            id: string;
            /**
             * Format: uuid
             * @description UUID, 8-4-4-4-12 hex digits; upper case is read as lower case
             */
            workspace_id: string;
        };
        AuditPage: {
            entries: components["schemas"]["AuditEntry"][];
            limit: number;
            /** @description null on the last page */
            next_offset: number | null;
            offset: number;
        };
        /** @description A channel of an app: production, or one that has a release */
        Channel: {
            /** @description a device may move itself onto this channel at run time (Capacitor channel_self, defaultChannel); always true for production */
            allow_device_self_assign: boolean;
            name: string;
        };
        CreatedWebhook: components["schemas"]["Webhook"] & {
            /** @description signing secret, shown only here */
            secret: string;
        };
        /** @description A device pinned to a channel or to a release */
        DeviceOverride: {
            channel: string | null;
            /** Format: date-time */
            created_at: string;
            device_id: string;
            module_id: string | null;
        };
        /** @description RFC 9457 problem details; every refusal of the service has this shape */
        Problem: {
            /** @description stable machine-readable code, e.g. `plan_required` */
            code: string;
            /** @description what went wrong, for a person */
            detail: string;
            status: number;
            title: string;
            /** @description a URI naming the kind of problem */
            type: string;
        } & {
            [key: string]: unknown;
        };
        /** @description A release (module): a bundle pushed to a channel */
        Release: {
            active: boolean;
            /**
             * Format: uuid
             * @description UUID, 8-4-4-4-12 hex digits; upper case is read as lower case
             */
            app_id: string;
            /** @description a Capacitor release: the checksum the plugin receives and, when the bytes are encrypted, the session key and key id; null for other releases */
            capacitor: {
                checksum: string;
                key_id: string | null;
                session_key: string | null;
            } | null;
            channel: string;
            /** Format: date-time */
            created_at: string;
            fingerprint: string | null;
            /**
             * Format: uuid
             * @description UUID, 8-4-4-4-12 hex digits; upper case is read as lower case
             */
            id: string;
            mandatory: boolean;
            notes: string;
            /** @description true while paused: offered to no device that does not already run it (POST /modules/{id}/resume) */
            paused: boolean;
            /** @description the release this one was promoted from, and its channel; null for a push */
            promoted_from: {
                channel: string;
                /**
                 * Format: uuid
                 * @description UUID, 8-4-4-4-12 hex digits; upper case is read as lower case
                 */
                module_id: string;
            } | null;
            /** @description when it was rolled back; null if not */
            rolled_back_at: string | null;
            rollout_pct: number;
            sha256: string;
            size: number;
            target_binary_range: string | null;
            version: string;
        };
        ReleasePage: {
            limit: number;
            modules: components["schemas"]["ReleaseWithStats"][];
            next_offset: number | null;
            offset: number;
            /**
             * Format: date-time
             * @description when the statistics were read; device events count once ingested, normally within seconds
             */
            stats_as_of: string;
        };
        ReleaseStats: {
            activations: number;
            /** @description activations / downloads over the release's life, 0-1 (the specification's ratio): it does not fall when devices leave the release, for example after a rollback; see running */
            adoption: number;
            /** @description what the service handed out for the release (docs/reference/delta-updates.md) */
            bytes_served: {
                /** @description bytes of whole downloads handed out */
                full: number;
                /** @description bytes of patches and diff packages handed out instead */
                patch: number;
                /** @description bytes of the files per-file manifests (Capacitor) listed for devices to fetch */
                per_file: number;
            };
            downloads: number;
            eligible_devices: number;
            errors: number;
            failure_rate: number;
            received_pct: number;
            /** @description devices whose latest update check in the active window (DEVICE_WINDOW_DAYS) reports this release as the one they run: the live figure, 0 once every device has moved off a rolled-back release */
            running: number;
            targeted_pct: number;
        };
        ReleaseWithStats: components["schemas"]["Release"] & {
            stats: components["schemas"]["ReleaseStats"];
        };
        Rollback: {
            active: components["schemas"]["Release"];
            rolled_back: components["schemas"]["Release"];
        };
        /** @description The release a device should install */
        Update: {
            mandatory: boolean;
            module_id: string;
            notes: string;
            sha256: string;
            /** @description present when the release was signed on the developer machine (docs/guides/signing.md) */
            signature?: {
                /** @enum {string} */
                alg: "rsa-v1_5-sha256";
                keyid: string;
                /** @description the canonical manifest the signature covers (UTF-8) */
                manifest: string;
                /** @description base64 RSA-SHA256 (PKCS #1 v1.5) signature of manifest */
                sig: string;
            };
            size: number;
            url: string;
            version: string;
        };
        UpdateCheck: {
            /** @description with `update: null`, when the device was refused rather than up to date: `device_cap` (the workspace's plan counts no more devices in its window) or `new_device_limit` (its client address added RATE_LIMIT_NEW_DEVICES_PER_ADDRESS_PER_HOUR new devices this hour) */
            reason?: "device_cap" | "new_device_limit";
            /** @description null: nothing to install */
            update: null | components["schemas"]["Update"];
        };
        Webhook: {
            /** Format: date-time */
            created_at: string;
            events: string[];
            /**
             * Format: uuid
             * @description UUID, 8-4-4-4-12 hex digits; upper case is read as lower case
             */
            id: string;
            is_active: boolean;
            url: string;
        };
        WebhookDelivery: {
            attempts: number;
            /** Format: date-time */
            created_at: string;
            event: string;
            /**
             * Format: uuid
             * @description UUID, 8-4-4-4-12 hex digits; upper case is read as lower case
             */
            id: string;
            last_error: string | null;
            next_attempt_at: string | null;
            response_status: number | null;
            status: "pending" | "succeeded" | "failed";
            /** Format: date-time */
            updated_at: string;
        };
        WebhookDeliveryDetail: components["schemas"]["WebhookDelivery"] & {
            attempt_log: {
                attempt: number;
                duration_ms: number;
                error: string | null;
                response_body: string | null;
                response_status: number | null;
                /** Format: date-time */
                started_at: string;
            }[];
            body: string;
        };
    };
    responses: {
        /** @description the report was taken */
        Status200: {
            headers: {
                [name: string]: unknown;
            };
            content: {
                "text/plain": "OK";
            };
        };
        /** @description the bundle bytes */
        Status200_2: {
            headers: {
                [name: string]: unknown;
            };
            content: {
                "application/json": string;
            };
        };
        /** @description the asset bytes */
        Status200_3: {
            headers: {
                [name: string]: unknown;
            };
            content: {
                "application/json": string;
            };
        };
        /** @description Default Response */
        Status200_4: {
            headers: {
                [name: string]: unknown;
            };
            content: {
                "application/json": {
                    /**
                     * Format: uuid
                     * @description UUID, 8-4-4-4-12 hex digits; upper case is read as lower case
                     */
                    id: string;
                    /** @description hobby (Hobby, free), pro (Startup) or team (Enterprise) */
                    plan: "hobby" | "pro" | "team";
                };
            };
        };
        /** @description The release with its new percentage */
        Status200_5: {
            headers: {
                [name: string]: unknown;
            };
            content: {
                /**
                 * @example {
                 *       "id": "9b1e4d7c-2a3f-4c5b-8d6e-7f0a1b2c3d4e",
                 *       "app_id": "3f6d2c1a-8b7e-4f5a-9c2d-1e0b7a6c5d4e",
                 *       "version": "1.4.2",
                 *       "channel": "production",
                 *       "rollout_pct": 50,
                 *       "mandatory": false,
                 *       "notes": "Fixes the checkout crash on Android 14",
                 *       "sha256": "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855",
                 *       "size": 1843200,
                 *       "fingerprint": null,
                 *       "target_binary_range": "^1.4.0",
                 *       "active": true,
                 *       "rolled_back_at": null,
                 *       "created_at": "2026-03-02T09:15:00.000Z",
                 *       "capacitor": null,
                 *       "paused": false,
                 *       "promoted_from": null
                 *     }
                 */
                "application/json": components["schemas"]["Release"];
            };
        };
        /** @description Default Response */
        Status200_6: {
            headers: {
                [name: string]: unknown;
            };
            content: {
                "application/json": {
                    action: "none" | "pause" | "rollback";
                    cooldown_minutes: number;
                    /** @description client networks (IPv4 /24, IPv6 /48) the failing devices of the window must come from before the alert fires (and its action runs); 1 for an app used inside one company network */
                    min_networks: number;
                    min_sample: number;
                    threshold: number;
                    window_minutes: number;
                };
            };
        };
        /** @description Default Response */
        Status202: {
            headers: {
                [name: string]: unknown;
            };
            content: {
                "application/json": {
                    /** @enum {string} */
                    alg: "rsa-v1_5-sha256";
                    /**
                     * Format: uuid
                     * @description UUID, 8-4-4-4-12 hex digits; upper case is read as lower case
                     */
                    app_id: string;
                    /** Format: date-time */
                    created_at: string;
                    /** Format: date-time */
                    expires_at: string;
                    /**
                     * Format: uuid
                     * @description UUID, 8-4-4-4-12 hex digits; upper case is read as lower case
                     */
                    id: string;
                    key_id: string;
                    /** @description part (check, ios, android, directive) -> base64 of the exact bytes to sign */
                    parts: {
                        [key: string]: string;
                    };
                    /** @enum {string} */
                    status: "awaiting_signatures";
                };
            };
        };
        /** @description Default Response */
        Status204: {
            headers: {
                [name: string]: unknown;
            };
            content?: never;
        };
        /** @description the requested byte range */
        Status206: {
            headers: {
                [name: string]: unknown;
            };
            content: {
                "application/json": string;
            };
        };
        /** @description a BSDIFF40 patch of the launch asset from the update named by Expo-Current-Update-ID (A-IM: bsdiff) */
        Status226: {
            headers: {
                [name: string]: unknown;
            };
            content: {
                "application/json": string;
            };
        };
        /** @description the bytes are at `location` (BLOB_STORE=s3) */
        Status302: {
            headers: {
                [name: string]: unknown;
            };
            content: {
                "application/json": unknown;
            };
        };
        /** @description the cached copy is current (no body) */
        Status304: {
            headers: {
                [name: string]: unknown;
            };
            content: {
                "application/json": unknown;
            };
        };
        /** @description Invalid request: a field is missing, malformed or out of range */
        Status400: {
            headers: {
                [name: string]: unknown;
            };
            content: {
                "application/problem+json": components["schemas"]["Problem"];
            };
        };
        /** @description No valid credential */
        Status401: {
            headers: {
                [name: string]: unknown;
            };
            content: {
                "application/problem+json": components["schemas"]["Problem"];
            };
        };
        /** @description The workspace plan does not include this; the detail names the plan and how to upgrade */
        Status402: {
            headers: {
                [name: string]: unknown;
            };
            content: {
                "application/problem+json": components["schemas"]["Problem"];
            };
        };
        /** @description The credential may not do this (role, or another workspace) */
        Status403: {
            headers: {
                [name: string]: unknown;
            };
            content: {
                "application/problem+json": components["schemas"]["Problem"];
            };
        };
        /** @description Unknown id, or an id of another workspace */
        Status404: {
            headers: {
                [name: string]: unknown;
            };
            content: {
                "application/problem+json": components["schemas"]["Problem"];
            };
        };
        /** @description Conflicts with the current state */
        Status409: {
            headers: {
                [name: string]: unknown;
            };
            content: {
                "application/problem+json": components["schemas"]["Problem"];
            };
        };
        /** @description A problem */
        Status410: {
            headers: {
                [name: string]: unknown;
            };
            content: {
                "application/problem+json": components["schemas"]["Problem"];
            };
        };
        /** @description Body too large */
        Status413: {
            headers: {
                [name: string]: unknown;
            };
            content: {
                "application/problem+json": components["schemas"]["Problem"];
            };
        };
        /** @description Unsupported content type */
        Status415: {
            headers: {
                [name: string]: unknown;
            };
            content: {
                "application/problem+json": components["schemas"]["Problem"];
            };
        };
        /** @description Range not satisfiable */
        Status416: {
            headers: {
                [name: string]: unknown;
            };
            content: {
                "application/problem+json": components["schemas"]["Problem"];
            };
        };
        /** @description Rate limit exceeded; retry after `Retry-After` seconds */
        Status429: {
            headers: {
                [name: string]: unknown;
            };
            content: {
                "application/problem+json": components["schemas"]["Problem"];
            };
        };
        /** @description A backing service is unreachable; retry after `Retry-After` seconds */
        Status503: {
            headers: {
                [name: string]: unknown;
            };
            content: {
                "application/problem+json": components["schemas"]["Problem"];
            };
        };
    };
    parameters: never;
    requestBodies: never;
    headers: never;
    pathItems: never;
}
export type $defs = Record<string, never>;
export interface operations {
    getApps: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        apps: components["schemas"]["App"][];
                    };
                };
            };
            401: components["responses"]["Status401"];
            403: components["responses"]["Status403"];
            503: components["responses"]["Status503"];
        };
    };
    postApps: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    name: string;
                };
            };
        };
        responses: {
            /** @description Default Response */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["App"];
                };
            };
            400: components["responses"]["Status400"];
            401: components["responses"]["Status401"];
            403: components["responses"]["Status403"];
            409: components["responses"]["Status409"];
            503: components["responses"]["Status503"];
        };
    };
    getAppsById: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description UUID, 8-4-4-4-12 hex digits; upper case is read as lower case */
                app_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["AppDetails"];
                };
            };
            400: components["responses"]["Status400"];
            401: components["responses"]["Status401"];
            403: components["responses"]["Status403"];
            404: components["responses"]["Status404"];
            503: components["responses"]["Status503"];
        };
    };
    getAppsAlerts: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description UUID, 8-4-4-4-12 hex digits; upper case is read as lower case */
                app_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            200: components["responses"]["Status200_6"];
            400: components["responses"]["Status400"];
            401: components["responses"]["Status401"];
            404: components["responses"]["Status404"];
            503: components["responses"]["Status503"];
        };
    };
    putAppsAlerts: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description UUID, 8-4-4-4-12 hex digits; upper case is read as lower case */
                app_id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    action?: "none" | "pause" | "rollback";
                    cooldown_minutes?: number;
                    min_networks?: number;
                    min_sample?: number;
                    threshold?: number;
                    window_minutes?: number;
                };
            };
        };
        responses: {
            200: components["responses"]["Status200_6"];
            400: components["responses"]["Status400"];
            401: components["responses"]["Status401"];
            402: components["responses"]["Status402"];
            403: components["responses"]["Status403"];
            404: components["responses"]["Status404"];
            503: components["responses"]["Status503"];
        };
    };
    putAppsBundles: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description UUID, 8-4-4-4-12 hex digits; upper case is read as lower case */
                app_id: string;
            };
            cookie?: never;
        };
        /** @description The bundle bytes */
        requestBody: {
            content: {
                "application/octet-stream": unknown;
            };
        };
        responses: {
            /** @description Default Response */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        sha256: string;
                        size: number;
                    };
                };
            };
            400: components["responses"]["Status400"];
            401: components["responses"]["Status401"];
            403: components["responses"]["Status403"];
            404: components["responses"]["Status404"];
            413: components["responses"]["Status413"];
            415: components["responses"]["Status415"];
            503: components["responses"]["Status503"];
        };
    };
    listChannels: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description UUID, 8-4-4-4-12 hex digits; upper case is read as lower case */
                app_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The channels, production first */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "channels": [
                     *         {
                     *           "name": "production",
                     *           "allow_device_self_assign": true
                     *         },
                     *         {
                     *           "name": "beta",
                     *           "allow_device_self_assign": true
                     *         },
                     *         {
                     *           "name": "staging",
                     *           "allow_device_self_assign": false
                     *         }
                     *       ]
                     *     }
                     */
                    "application/json": {
                        channels: {
                            /** @description a device may move itself onto this channel at run time (Capacitor channel_self, defaultChannel); always true for production */
                            allow_device_self_assign: boolean;
                            name: string;
                        }[];
                    };
                };
            };
            400: components["responses"]["Status400"];
            401: components["responses"]["Status401"];
            403: components["responses"]["Status403"];
            404: components["responses"]["Status404"];
            503: components["responses"]["Status503"];
        };
    };
    deleteChannel: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description UUID, 8-4-4-4-12 hex digits; upper case is read as lower case */
                app_id: string;
                /** @description 1-64 of [a-z0-9._-] */
                name: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            204: components["responses"]["Status204"];
            400: components["responses"]["Status400"];
            401: components["responses"]["Status401"];
            403: components["responses"]["Status403"];
            404: components["responses"]["Status404"];
            503: components["responses"]["Status503"];
        };
    };
    updateChannel: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description UUID, 8-4-4-4-12 hex digits; upper case is read as lower case */
                app_id: string;
                /** @description 1-64 of [a-z0-9._-] */
                name: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "allow_device_self_assign": true
                 *     }
                 */
                "application/json": {
                    allow_device_self_assign: boolean;
                };
            };
        };
        responses: {
            /** @description The channel */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "name": "beta",
                     *       "allow_device_self_assign": true
                     *     }
                     */
                    "application/json": components["schemas"]["Channel"];
                };
            };
            400: components["responses"]["Status400"];
            401: components["responses"]["Status401"];
            402: components["responses"]["Status402"];
            403: components["responses"]["Status403"];
            404: components["responses"]["Status404"];
            503: components["responses"]["Status503"];
        };
    };
    getAppsDeploymentKeys: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description UUID, 8-4-4-4-12 hex digits; upper case is read as lower case */
                app_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        deployment_keys: {
                            channel: string;
                            /** Format: date-time */
                            created_at: string;
                            key: string;
                        }[];
                    };
                };
            };
            400: components["responses"]["Status400"];
            401: components["responses"]["Status401"];
            403: components["responses"]["Status403"];
            404: components["responses"]["Status404"];
            503: components["responses"]["Status503"];
        };
    };
    postAppsDeploymentKeys: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description UUID, 8-4-4-4-12 hex digits; upper case is read as lower case */
                app_id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** @description the channel the key serves; other than production needs a plan with channels */
                    channel: string;
                };
            };
        };
        responses: {
            /** @description Default Response */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        channel: string;
                        /** Format: date-time */
                        created_at: string;
                        key: string;
                    };
                };
            };
            400: components["responses"]["Status400"];
            401: components["responses"]["Status401"];
            402: components["responses"]["Status402"];
            403: components["responses"]["Status403"];
            404: components["responses"]["Status404"];
            409: components["responses"]["Status409"];
            503: components["responses"]["Status503"];
        };
    };
    deleteAppsDeploymentKeysById: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description UUID, 8-4-4-4-12 hex digits; upper case is read as lower case */
                app_id: string;
                /** @description a deployment key: 10-100 of [A-Za-z0-9_-] */
                key: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            204: components["responses"]["Status204"];
            400: components["responses"]["Status400"];
            401: components["responses"]["Status401"];
            403: components["responses"]["Status403"];
            404: components["responses"]["Status404"];
            503: components["responses"]["Status503"];
        };
    };
    listDeviceOverrides: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description UUID, 8-4-4-4-12 hex digits; upper case is read as lower case */
                app_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The overrides, newest first */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "overrides": [
                     *         {
                     *           "device_id": "device-7c1f0a",
                     *           "channel": null,
                     *           "module_id": "5c2a9e1f-7d3b-4a6c-9e8d-0f1a2b3c4d5e",
                     *           "created_at": "2026-03-02T12:05:00.000Z",
                     *           "servable": false,
                     *           "reason": "binary_range_mismatch",
                     *           "last_check_at": "2026-03-02T12:09:41.000Z"
                     *         },
                     *         {
                     *           "device_id": "qa-pixel-8",
                     *           "channel": "beta",
                     *           "module_id": null,
                     *           "created_at": "2026-03-01T16:30:00.000Z",
                     *           "servable": null,
                     *           "reason": null,
                     *           "last_check_at": null
                     *         }
                     *       ]
                     *     }
                     */
                    "application/json": {
                        overrides: (components["schemas"]["DeviceOverride"] & {
                            /** @description when the outcome of the pinned device's last check was noted */
                            last_check_at: string | null;
                            /** @description `release_rolled_back`; `fingerprint_mismatch` (the device sent another fingerprint or runtime version); `binary_range_mismatch` (its native version is outside the range, or not sent); `release_unavailable` (not a release the protocol the device checked with serves, or not signed as that client expects) */
                            reason: "release_unavailable" | "fingerprint_mismatch" | "binary_range_mismatch" | "release_rolled_back" | null;
                            /** @description for a release override: false when the pinned release cannot be served to the device (see `reason`), true when its last check was served it, null while not known (no check since the pin); null for a channel override */
                            servable: boolean | null;
                        })[];
                    };
                };
            };
            400: components["responses"]["Status400"];
            401: components["responses"]["Status401"];
            403: components["responses"]["Status403"];
            404: components["responses"]["Status404"];
            503: components["responses"]["Status503"];
        };
    };
    putDeviceOverride: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description UUID, 8-4-4-4-12 hex digits; upper case is read as lower case */
                app_id: string;
                device_id: string;
            };
            cookie?: never;
        };
        /** @description `{channel}`: the device is served as a device of that channel (buckets and rollouts apply there); `{module_id}`: the device is served that release of the app whatever its bucket, rollout or pause, while it can run it (fingerprint, runtime version and binary range still apply) */
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "channel": "beta"
                 *     }
                 */
                "application/json": {
                    /** @description 1-64 of [a-z0-9._-] */
                    channel: string;
                } | {
                    /**
                     * Format: uuid
                     * @description UUID, 8-4-4-4-12 hex digits; upper case is read as lower case
                     */
                    module_id: string;
                };
            };
        };
        responses: {
            /** @description The override */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "device_id": "device-7c1f0a",
                     *       "channel": null,
                     *       "module_id": "5c2a9e1f-7d3b-4a6c-9e8d-0f1a2b3c4d5e",
                     *       "created_at": "2026-03-02T12:05:00.000Z"
                     *     }
                     */
                    "application/json": components["schemas"]["DeviceOverride"];
                };
            };
            400: components["responses"]["Status400"];
            401: components["responses"]["Status401"];
            402: components["responses"]["Status402"];
            403: components["responses"]["Status403"];
            404: components["responses"]["Status404"];
            409: components["responses"]["Status409"];
            503: components["responses"]["Status503"];
        };
    };
    deleteDeviceOverride: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description UUID, 8-4-4-4-12 hex digits; upper case is read as lower case */
                app_id: string;
                device_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            204: components["responses"]["Status204"];
            400: components["responses"]["Status400"];
            401: components["responses"]["Status401"];
            403: components["responses"]["Status403"];
            404: components["responses"]["Status404"];
            503: components["responses"]["Status503"];
        };
    };
    postAppsFingerprints: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description UUID, 8-4-4-4-12 hex digits; upper case is read as lower case */
                app_id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    fingerprint: string;
                };
            };
        };
        responses: {
            /** @description Default Response */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** Format: date-time */
                        created_at: string;
                        fingerprint: string;
                    };
                };
            };
            400: components["responses"]["Status400"];
            401: components["responses"]["Status401"];
            403: components["responses"]["Status403"];
            404: components["responses"]["Status404"];
            503: components["responses"]["Status503"];
        };
    };
    listReleases: {
        parameters: {
            query: {
                /** @description 1-64 of [a-z0-9._-] */
                channel?: string;
                limit: number;
                offset: number;
            };
            header?: never;
            path: {
                /** @description UUID, 8-4-4-4-12 hex digits; upper case is read as lower case */
                app_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ReleasePage"];
                };
            };
            400: components["responses"]["Status400"];
            401: components["responses"]["Status401"];
            403: components["responses"]["Status403"];
            404: components["responses"]["Status404"];
            503: components["responses"]["Status503"];
        };
    };
    getAppStats: {
        parameters: {
            query?: {
                from?: string;
                interval?: "minute" | "hour" | "day";
                to?: string;
            };
            header?: never;
            path: {
                /** @description UUID, 8-4-4-4-12 hex digits; upper case is read as lower case */
                app_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description One point per interval and module */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "series": [
                     *         {
                     *           "ts": "2026-03-02T10:00:00.000Z",
                     *           "module_id": "9b1e4d7c-2a3f-4c5b-8d6e-7f0a1b2c3d4e",
                     *           "checks": 5120,
                     *           "downloads": 498,
                     *           "activations": 471,
                     *           "errors": 6,
                     *           "devices": 503
                     *         }
                     *       ]
                     *     }
                     */
                    "application/json": {
                        series: {
                            activations: number;
                            checks: number;
                            devices: number;
                            downloads: number;
                            errors: number;
                            module_id: string | null;
                            /** Format: date-time */
                            ts: string;
                        }[];
                    };
                };
            };
            400: components["responses"]["Status400"];
            401: components["responses"]["Status401"];
            404: components["responses"]["Status404"];
            503: components["responses"]["Status503"];
        };
    };
    getAudit: {
        parameters: {
            query: {
                /** @description only entries of this exact action */
                action?: "login" | "account.create" | "app.create" | "fingerprint.register" | "module.push" | "rollout.change" | "module.rollback" | "member.invite" | "member.role_change" | "member.remove" | "plan.change" | "device.release" | "device.override" | "device.override_remove" | "channel.change" | "api_key.create" | "api_key.revoke" | "channel.delete";
                /** @description only entries about this app; it must be an app of the caller's workspace */
                app_id?: string;
                /** @description entries per page, 1-200 */
                limit: number;
                /** @description entries to skip, newest first; past the end gives an empty page */
                offset: number;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["AuditPage"];
                };
            };
            400: components["responses"]["Status400"];
            401: components["responses"]["Status401"];
            402: components["responses"]["Status402"];
            403: components["responses"]["Status403"];
            503: components["responses"]["Status503"];
        };
    };
    postAuthPassword: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "current_password": "correct horse battery",
                 *       "new_password": "staple gun turnip 42"
                 *     }
                 */
                "application/json": {
                    current_password: string;
                    new_password: string;
                };
            };
        };
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        expires_at: string;
                        /** @description a new identity token for the same workspace; earlier ones are ended */
                        token: string;
                        /**
                         * Format: uuid
                         * @description UUID, 8-4-4-4-12 hex digits; upper case is read as lower case
                         */
                        workspace_id: string;
                    };
                };
            };
            400: components["responses"]["Status400"];
            401: components["responses"]["Status401"];
            403: components["responses"]["Status403"];
            429: components["responses"]["Status429"];
            503: components["responses"]["Status503"];
        };
    };
    postAuthPasswordReset: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "email": "dana@example.com"
                 *     }
                 */
                "application/json": {
                    /** Format: email */
                    email: string;
                };
            };
        };
        responses: {
            202: components["responses"]["Status204"];
            400: components["responses"]["Status400"];
            403: components["responses"]["Status403"];
            429: components["responses"]["Status429"];
            503: components["responses"]["Status503"];
        };
    };
    postAuthPasswordResetConfirm: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "token": "ota_pwr_3q2-7wEAAAAbBQ9rS1y0sVq2N5o8Lr6kXn4cJd0",
                 *       "new_password": "staple gun turnip 42"
                 *     }
                 */
                "application/json": {
                    new_password: string;
                    token: string;
                };
            };
        };
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "revoked_api_keys": [
                     *         {
                     *           "id": "0d9f6a52-6a0e-4d4b-9b7e-2f1f6d1c3a10",
                     *           "name": "ci",
                     *           "workspace_id": "5b3f0c1e-8a54-4d0f-9a3c-6f0b2e4d7c21"
                     *         }
                     *       ]
                     *     }
                     */
                    "application/json": {
                        /** @description The API keys the user had made, in any workspace, that the reset ended (each audited `api_key.revoke` in its workspace). Make new ones after signing in. */
                        revoked_api_keys: {
                            /**
                             * Format: uuid
                             * @description UUID, 8-4-4-4-12 hex digits; upper case is read as lower case
                             */
                            id: string;
                            name: string;
                            /**
                             * Format: uuid
                             * @description UUID, 8-4-4-4-12 hex digits; upper case is read as lower case
                             */
                            workspace_id: string;
                        }[];
                    };
                };
            };
            400: components["responses"]["Status400"];
            404: components["responses"]["Status404"];
            410: components["responses"]["Status410"];
            429: components["responses"]["Status429"];
            503: components["responses"]["Status503"];
        };
    };
    postAuthSignin: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** @description whether an unknown e-mail makes an account: unset or true it does (if SIGNUP allows); false answers 404 `account_not_found` instead, so a mistyped e-mail makes no account */
                    create?: boolean;
                    /** Format: email */
                    email: string;
                    password: string;
                };
            };
        };
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        created: boolean;
                        expires_at: string;
                        token: string;
                        user: {
                            email: string;
                            /**
                             * Format: uuid
                             * @description UUID, 8-4-4-4-12 hex digits; upper case is read as lower case
                             */
                            id: string;
                        };
                        /**
                         * Format: uuid
                         * @description UUID, 8-4-4-4-12 hex digits; upper case is read as lower case
                         */
                        workspace_id: string;
                    };
                };
            };
            400: components["responses"]["Status400"];
            401: components["responses"]["Status401"];
            403: components["responses"]["Status403"];
            404: components["responses"]["Status404"];
            429: components["responses"]["Status429"];
            503: components["responses"]["Status503"];
        };
    };
    postAuthSignout: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** @description optional: without a body, only the token of the request is signed out */
        requestBody: {
            content: {
                "application/json": {
                    /** @description end every token of the user, in every workspace (default false) */
                    everywhere?: boolean;
                } | null;
            };
        };
        responses: {
            204: components["responses"]["Status204"];
            400: components["responses"]["Status400"];
            401: components["responses"]["Status401"];
            403: components["responses"]["Status403"];
            503: components["responses"]["Status503"];
        };
    };
    postAuthToken: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /**
                     * Format: uuid
                     * @description UUID, 8-4-4-4-12 hex digits; upper case is read as lower case
                     */
                    workspace_id: string;
                };
            };
        };
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        expires_at: string;
                        token: string;
                        /**
                         * Format: uuid
                         * @description UUID, 8-4-4-4-12 hex digits; upper case is read as lower case
                         */
                        workspace_id: string;
                    };
                };
            };
            400: components["responses"]["Status400"];
            401: components["responses"]["Status401"];
            403: components["responses"]["Status403"];
            503: components["responses"]["Status503"];
        };
    };
    postAuthVerifyEmail: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            202: components["responses"]["Status204"];
            401: components["responses"]["Status401"];
            403: components["responses"]["Status403"];
            429: components["responses"]["Status429"];
            503: components["responses"]["Status503"];
        };
    };
    postAuthVerifyEmailConfirm: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "token": "ota_vfy_3q2-7wEAAAAbBQ9rS1y0sVq2N5o8Lr6kXn4cJd0"
                 *     }
                 */
                "application/json": {
                    token: string;
                };
            };
        };
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        email: string;
                    };
                };
            };
            400: components["responses"]["Status400"];
            404: components["responses"]["Status404"];
            410: components["responses"]["Status410"];
            429: components["responses"]["Status429"];
            503: components["responses"]["Status503"];
        };
    };
    getBundlesById: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                sha256: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            200: components["responses"]["Status200_2"];
            206: components["responses"]["Status206"];
            302: components["responses"]["Status302"];
            304: components["responses"]["Status304"];
            400: components["responses"]["Status400"];
            404: components["responses"]["Status404"];
            416: components["responses"]["Status416"];
            429: components["responses"]["Status429"];
            503: components["responses"]["Status503"];
        };
    };
    headBundlesById: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                sha256: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            200: components["responses"]["Status200_2"];
            206: components["responses"]["Status206"];
            302: components["responses"]["Status302"];
            304: components["responses"]["Status304"];
            400: components["responses"]["Status400"];
            404: components["responses"]["Status404"];
            416: components["responses"]["Status416"];
            429: components["responses"]["Status429"];
            503: components["responses"]["Status503"];
        };
    };
    getCapacitorChannelSelf: {
        parameters: {
            query: {
                /** @description the app's bundle identifier (the app is named by the path) */
                app_id?: string;
                /** @description what setCustomId() set, "" otherwise */
                custom_id?: string;
                /** @description the channel the device asks for ("" for none; plugin 5.5 and later): honoured when it allows self-assignment */
                defaultChannel?: string;
                /** @description the device id the plugin keeps (a UUID); it picks the bucket */
                device_id: string;
                /** @description the store the app came from (plugin 8.50 and later) */
                install_source?: string;
                is_emulator?: string;
                is_prod?: string;
                /** @description the first characters of the app's public key, when it has one */
                key_id?: string;
                /** @description "android" or "ios" */
                platform?: string;
                /** @description the plugin version, e.g. "8.51.14" */
                plugin_version?: string;
                /** @description the native app version, matched against target_binary_range (semver; "1.2" reads as 1.2.0) */
                version_build?: string;
                /** @description Android versionCode, iOS CFBundleVersion */
                version_code?: string;
                /** @description the bundle the device runs: a release version, or "builtin" */
                version_name?: string;
                /** @description the OS version */
                version_os?: string;
            };
            header?: never;
            path: {
                /** @description UUID, 8-4-4-4-12 hex digits; upper case is read as lower case */
                app_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description the channels a device may join by itself */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example [
                     *       {
                     *         "id": 1,
                     *         "name": "production",
                     *         "public": true,
                     *         "allow_self_set": true
                     *       },
                     *       {
                     *         "id": 2,
                     *         "name": "beta",
                     *         "public": false,
                     *         "allow_self_set": true
                     *       }
                     *     ]
                     */
                    "application/json": {
                        allow_self_set: boolean;
                        id: number;
                        name: string;
                        public: boolean;
                    }[];
                };
            };
            400: components["responses"]["Status400"];
            404: components["responses"]["Status404"];
            429: components["responses"]["Status429"];
            503: components["responses"]["Status503"];
        };
    };
    putCapacitorChannelSelf: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description UUID, 8-4-4-4-12 hex digits; upper case is read as lower case */
                app_id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "platform": "android",
                 *       "device_id": "5b0f1d2c-8a4e-4b7f-9c3d-2e1f0a9b8c7d",
                 *       "app_id": "com.example.shop",
                 *       "custom_id": "",
                 *       "version_build": "1.4.0",
                 *       "version_code": "140",
                 *       "version_os": "14",
                 *       "version_name": "builtin",
                 *       "plugin_version": "8.51.14",
                 *       "is_emulator": false,
                 *       "is_prod": true,
                 *       "install_source": "google_play",
                 *       "defaultChannel": ""
                 *     }
                 */
                "application/json": {
                    /** @description the app's bundle identifier (the app is named by the path) */
                    app_id?: string;
                    /** @description what setCustomId() set, "" otherwise */
                    custom_id?: string;
                    /** @description the channel the device asks for ("" for none; plugin 5.5 and later): honoured when it allows self-assignment */
                    defaultChannel?: string;
                    /** @description the device id the plugin keeps (a UUID); it picks the bucket */
                    device_id: string;
                    /** @description the store the app came from (plugin 8.50 and later) */
                    install_source?: string;
                    is_emulator?: boolean;
                    is_prod?: boolean;
                    /** @description the first characters of the app's public key, when it has one */
                    key_id?: string;
                    /** @description "android" or "ios" */
                    platform?: string;
                    /** @description the plugin version, e.g. "8.51.14" */
                    plugin_version?: string;
                    /** @description the native app version, matched against target_binary_range (semver; "1.2" reads as 1.2.0) */
                    version_build?: string;
                    /** @description Android versionCode, iOS CFBundleVersion */
                    version_code?: string;
                    /** @description the bundle the device runs: a release version, or "builtin" */
                    version_name?: string;
                    /** @description the OS version */
                    version_os?: string;
                };
            };
        };
        responses: {
            /** @description the channel the device is served from */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "channel": "beta",
                     *       "status": "override",
                     *       "allowSet": true
                     *     }
                     */
                    "application/json": {
                        allowSet: boolean;
                        channel: string;
                        status: "override" | "default";
                    };
                };
            };
            400: components["responses"]["Status400"];
            404: components["responses"]["Status404"];
            413: components["responses"]["Status413"];
            415: components["responses"]["Status415"];
            429: components["responses"]["Status429"];
            503: components["responses"]["Status503"];
        };
    };
    postCapacitorChannelSelf: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description UUID, 8-4-4-4-12 hex digits; upper case is read as lower case */
                app_id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "platform": "android",
                 *       "device_id": "5b0f1d2c-8a4e-4b7f-9c3d-2e1f0a9b8c7d",
                 *       "app_id": "com.example.shop",
                 *       "custom_id": "",
                 *       "version_build": "1.4.0",
                 *       "version_code": "140",
                 *       "version_os": "14",
                 *       "version_name": "builtin",
                 *       "plugin_version": "8.51.14",
                 *       "is_emulator": false,
                 *       "is_prod": true,
                 *       "install_source": "google_play",
                 *       "defaultChannel": "",
                 *       "channel": "beta"
                 *     }
                 */
                "application/json": {
                    /** @description the app's bundle identifier (the app is named by the path) */
                    app_id?: string;
                    /** @description the channel the device asks to join */
                    channel: string;
                    /** @description what setCustomId() set, "" otherwise */
                    custom_id?: string;
                    /** @description the channel the device asks for ("" for none; plugin 5.5 and later): honoured when it allows self-assignment */
                    defaultChannel?: string;
                    /** @description the device id the plugin keeps (a UUID); it picks the bucket */
                    device_id: string;
                    /** @description the store the app came from (plugin 8.50 and later) */
                    install_source?: string;
                    is_emulator?: boolean;
                    is_prod?: boolean;
                    /** @description the first characters of the app's public key, when it has one */
                    key_id?: string;
                    /** @description "android" or "ios" */
                    platform?: string;
                    /** @description the plugin version, e.g. "8.51.14" */
                    plugin_version?: string;
                    /** @description the native app version, matched against target_binary_range (semver; "1.2" reads as 1.2.0) */
                    version_build?: string;
                    /** @description Android versionCode, iOS CFBundleVersion */
                    version_code?: string;
                    /** @description the bundle the device runs: a release version, or "builtin" */
                    version_name?: string;
                    /** @description the OS version */
                    version_os?: string;
                };
            };
        };
        responses: {
            /** @description the device may keep the channel, or why not */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @enum {boolean} */
                        allowSet: true;
                        /** @enum {string} */
                        status: "ok";
                    } | {
                        error: string;
                        message: string;
                    };
                };
            };
            400: components["responses"]["Status400"];
            404: components["responses"]["Status404"];
            413: components["responses"]["Status413"];
            415: components["responses"]["Status415"];
            429: components["responses"]["Status429"];
            503: components["responses"]["Status503"];
        };
    };
    deleteCapacitorChannelSelf: {
        parameters: {
            query?: {
                /** @description the app's bundle identifier (the app is named by the path) */
                app_id?: string;
                /** @description what setCustomId() set, "" otherwise */
                custom_id?: string;
                /** @description the channel the device asks for ("" for none; plugin 5.5 and later): honoured when it allows self-assignment */
                defaultChannel?: string;
                /** @description the device id the plugin keeps (a UUID); it picks the bucket */
                device_id?: string;
                /** @description the store the app came from (plugin 8.50 and later) */
                install_source?: string;
                is_emulator?: string;
                is_prod?: string;
                /** @description the first characters of the app's public key, when it has one */
                key_id?: string;
                /** @description "android" or "ios" */
                platform?: string;
                /** @description the plugin version, e.g. "8.51.14" */
                plugin_version?: string;
                /** @description the native app version, matched against target_binary_range (semver; "1.2" reads as 1.2.0) */
                version_build?: string;
                /** @description Android versionCode, iOS CFBundleVersion */
                version_code?: string;
                /** @description the bundle the device runs: a release version, or "builtin" */
                version_name?: string;
                /** @description the OS version */
                version_os?: string;
            };
            header?: never;
            path: {
                /** @description UUID, 8-4-4-4-12 hex digits; upper case is read as lower case */
                app_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description the stored channel was cleared */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "status": "ok"
                     *     }
                     */
                    "application/json": {
                        /** @enum {string} */
                        status: "ok";
                    };
                };
            };
            400: components["responses"]["Status400"];
            404: components["responses"]["Status404"];
            413: components["responses"]["Status413"];
            415: components["responses"]["Status415"];
            429: components["responses"]["Status429"];
            503: components["responses"]["Status503"];
        };
    };
    postCapacitorStats: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description UUID, 8-4-4-4-12 hex digits; upper case is read as lower case */
                app_id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example [
                 *       {
                 *         "platform": "android",
                 *         "device_id": "5b0f1d2c-8a4e-4b7f-9c3d-2e1f0a9b8c7d",
                 *         "app_id": "com.example.shop",
                 *         "custom_id": "",
                 *         "version_build": "1.4.0",
                 *         "version_code": "140",
                 *         "version_os": "14",
                 *         "version_name": "1.0.1",
                 *         "plugin_version": "8.51.14",
                 *         "is_emulator": false,
                 *         "is_prod": true,
                 *         "install_source": "google_play",
                 *         "defaultChannel": "",
                 *         "action": "download_complete",
                 *         "timestamp": 1767225600000
                 *       },
                 *       {
                 *         "platform": "android",
                 *         "device_id": "5b0f1d2c-8a4e-4b7f-9c3d-2e1f0a9b8c7d",
                 *         "app_id": "com.example.shop",
                 *         "custom_id": "",
                 *         "version_build": "1.4.0",
                 *         "version_code": "140",
                 *         "version_os": "14",
                 *         "version_name": "1.0.1",
                 *         "plugin_version": "8.51.14",
                 *         "is_emulator": false,
                 *         "is_prod": true,
                 *         "install_source": "google_play",
                 *         "defaultChannel": "",
                 *         "old_version_name": "builtin",
                 *         "action": "set",
                 *         "timestamp": 1767225601000
                 *       }
                 *     ]
                 */
                "application/json": {
                    /** @description what happened: download_complete, set, update_fail, … */
                    action: string;
                    /** @description the app's bundle identifier (the app is named by the path) */
                    app_id?: string;
                    /** @description what setCustomId() set, "" otherwise */
                    custom_id?: string;
                    /** @description the channel the device asks for ("" for none; plugin 5.5 and later): honoured when it allows self-assignment */
                    defaultChannel?: string;
                    /** @description the device id the plugin keeps (a UUID); it picks the bucket */
                    device_id: string;
                    /** @description the store the app came from (plugin 8.50 and later) */
                    install_source?: string;
                    is_emulator?: boolean;
                    is_prod?: boolean;
                    /** @description the first characters of the app's public key, when it has one */
                    key_id?: string;
                    /** @description the bundle before a `set` */
                    old_version_name?: string;
                    /** @description "android" or "ios" */
                    platform?: string;
                    /** @description the plugin version, e.g. "8.51.14" */
                    plugin_version?: string;
                    /** @description epoch milliseconds (plugin 8.42 and later) */
                    timestamp?: number;
                    /** @description the native app version, matched against target_binary_range (semver; "1.2" reads as 1.2.0) */
                    version_build?: string;
                    /** @description Android versionCode, iOS CFBundleVersion */
                    version_code?: string;
                    /** @description the bundle the device runs: a release version, or "builtin" */
                    version_name?: string;
                    /** @description the OS version */
                    version_os?: string;
                } | unknown[];
            };
        };
        responses: {
            /** @description the statistics were taken */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "status": "ok"
                     *     }
                     */
                    "application/json": {
                        /** @enum {string} */
                        status: "ok";
                    };
                };
            };
            400: components["responses"]["Status400"];
            404: components["responses"]["Status404"];
            413: components["responses"]["Status413"];
            415: components["responses"]["Status415"];
            429: components["responses"]["Status429"];
            503: components["responses"]["Status503"];
        };
    };
    postCapacitorUpdates: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description UUID, 8-4-4-4-12 hex digits; upper case is read as lower case */
                app_id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "platform": "android",
                 *       "device_id": "5b0f1d2c-8a4e-4b7f-9c3d-2e1f0a9b8c7d",
                 *       "app_id": "com.example.shop",
                 *       "custom_id": "",
                 *       "version_build": "1.4.0",
                 *       "version_code": "140",
                 *       "version_os": "14",
                 *       "version_name": "builtin",
                 *       "plugin_version": "8.51.14",
                 *       "is_emulator": false,
                 *       "is_prod": true,
                 *       "install_source": "google_play",
                 *       "defaultChannel": ""
                 *     }
                 */
                "application/json": {
                    /** @description the app's bundle identifier (the app is named by the path) */
                    app_id?: string;
                    /** @description what setCustomId() set, "" otherwise */
                    custom_id?: string;
                    /** @description the channel the device asks for ("" for none; plugin 5.5 and later): honoured when it allows self-assignment */
                    defaultChannel?: string;
                    /** @description the device id the plugin keeps (a UUID); it picks the bucket */
                    device_id: string;
                    /** @description the store the app came from (plugin 8.50 and later) */
                    install_source?: string;
                    is_emulator?: boolean;
                    is_prod?: boolean;
                    /** @description the first characters of the app's public key, when it has one */
                    key_id?: string;
                    /** @description "android" or "ios" */
                    platform?: string;
                    /** @description the plugin version, e.g. "8.51.14" */
                    plugin_version?: string;
                    /** @description the native app version, matched against target_binary_range (semver; "1.2" reads as 1.2.0) */
                    version_build?: string;
                    /** @description Android versionCode, iOS CFBundleVersion */
                    version_code?: string;
                    /** @description the bundle the device runs: a release version, or "builtin" */
                    version_name?: string;
                    /** @description the OS version */
                    version_os?: string;
                };
            };
        };
        responses: {
            /** @description an update, a reset to the built-in bundle, or nothing to install */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description the zip's SHA-256 (hex), or that digest signed with the developer's key */
                        checksum?: string;
                        /** @description per-file download, for a device on an earlier release */
                        manifest?: {
                            download_url: string;
                            file_hash: string;
                            file_name: string;
                        }[];
                        /** @description of an encrypted release: `<iv>:<wrapped key>` */
                        session_key?: string;
                        /** @description where the zip is downloaded */
                        url?: string;
                        /** @description the release version ("builtin": go back to the bundle in the app) */
                        version: string;
                    } | {
                        error: string;
                        /** @description `up_to_date` or `blocked`: the plugin reports nothing */
                        kind: string;
                        message: string;
                    };
                };
            };
            400: components["responses"]["Status400"];
            404: components["responses"]["Status404"];
            413: components["responses"]["Status413"];
            415: components["responses"]["Status415"];
            429: components["responses"]["Status429"];
            503: components["responses"]["Status503"];
        };
    };
    postDevicesEvents: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /**
                     * Format: uuid
                     * @description UUID, 8-4-4-4-12 hex digits; upper case is read as lower case
                     */
                    app_id: string;
                    events: {
                        device_id: string;
                        id: string;
                        /** @description Free text; a NUL or an unpaired UTF-16 surrogate in it is stored as U+FFFD. */
                        message?: string;
                        /** @description The release the event is about (a module id of the app); absent, null or "" for the bundle embedded in the app binary. An event naming a module the app does not have is refused (see `refused`). */
                        module_id?: string | null;
                        /** Format: date-time */
                        ts?: string;
                        /** @enum {string} */
                        type: "download" | "activation" | "error";
                    }[];
                };
            };
        };
        responses: {
            /** @description Default Response */
            202: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description Events taken: every event of the batch but those listed in `refused`. */
                        accepted: number;
                        /** @description Events not taken, with why; sending them again changes nothing. Empty when all were taken. */
                        refused: {
                            /**
                             * @description `unknown_module`: `module_id` is not a release of the app
                             * @enum {string}
                             */
                            code: "unknown_module";
                            /** @description the event id */
                            id: string;
                            /** @description position of the event in `events` */
                            index: number;
                        }[];
                    };
                };
            };
            400: components["responses"]["Status400"];
            404: components["responses"]["Status404"];
            413: components["responses"]["Status413"];
            415: components["responses"]["Status415"];
            429: components["responses"]["Status429"];
            503: components["responses"]["Status503"];
        };
    };
    getExpoAppAsset: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description UUID, 8-4-4-4-12 hex digits; upper case is read as lower case */
                app_id: string;
                /** @description <sha256>.<extension> */
                file: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            200: components["responses"]["Status200_3"];
            206: components["responses"]["Status206"];
            226: components["responses"]["Status226"];
            302: components["responses"]["Status302"];
            304: components["responses"]["Status304"];
            400: components["responses"]["Status400"];
            404: components["responses"]["Status404"];
            416: components["responses"]["Status416"];
            429: components["responses"]["Status429"];
            503: components["responses"]["Status503"];
        };
    };
    headGetExpoAppAsset: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description UUID, 8-4-4-4-12 hex digits; upper case is read as lower case */
                app_id: string;
                /** @description <sha256>.<extension> */
                file: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            200: components["responses"]["Status200_3"];
            206: components["responses"]["Status206"];
            226: components["responses"]["Status226"];
            302: components["responses"]["Status302"];
            304: components["responses"]["Status304"];
            400: components["responses"]["Status400"];
            404: components["responses"]["Status404"];
            416: components["responses"]["Status416"];
            429: components["responses"]["Status429"];
            503: components["responses"]["Status503"];
        };
    };
    getExpoManifest: {
        parameters: {
            query?: never;
            header: {
                accept?: string;
                /** @description the device id for buckets and caps; without it only releases at 100 % are served */
                "eas-client-id"?: string;
                /** @description the channel (default production) */
                "expo-channel-name"?: string;
                /** @description the update the device runs */
                "expo-current-update-id"?: string;
                /** @description an Expo SFV dictionary (sig, keyid, alg): only releases signed so are served */
                "expo-expect-signature"?: string;
                /** @description ios or android; anything else is a 400 */
                "expo-platform": "ios" | "android";
                /** @description must be 1; anything else (or none) is a 406 */
                "expo-protocol-version"?: string;
                /** @description an SFV list of update ids that failed to launch: one error per device and update */
                "expo-recent-failed-update-ids"?: string;
                /** @description the build's runtime version: only releases pushed with it are served */
                "expo-runtime-version": string;
            };
            path: {
                /** @description UUID, 8-4-4-4-12 hex digits; upper case is read as lower case */
                app_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description multipart/mixed, or the manifest as application/expo+json or application/json */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": string;
                };
            };
            /** @description no update and no directive */
            204: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": unknown;
                };
            };
            400: components["responses"]["Status400"];
            404: components["responses"]["Status404"];
            /** @description No acceptable representation */
            406: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            429: components["responses"]["Status429"];
            503: components["responses"]["Status503"];
        };
    };
    getExpoAssetsById: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description <sha256>.<extension> */
                file: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            200: components["responses"]["Status200_3"];
            206: components["responses"]["Status206"];
            226: components["responses"]["Status226"];
            302: components["responses"]["Status302"];
            304: components["responses"]["Status304"];
            400: components["responses"]["Status400"];
            404: components["responses"]["Status404"];
            416: components["responses"]["Status416"];
            429: components["responses"]["Status429"];
            503: components["responses"]["Status503"];
        };
    };
    headExpoAssetsById: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description <sha256>.<extension> */
                file: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            200: components["responses"]["Status200_3"];
            206: components["responses"]["Status206"];
            226: components["responses"]["Status226"];
            302: components["responses"]["Status302"];
            304: components["responses"]["Status304"];
            400: components["responses"]["Status400"];
            404: components["responses"]["Status404"];
            416: components["responses"]["Status416"];
            429: components["responses"]["Status429"];
            503: components["responses"]["Status503"];
        };
    };
    postExpoReleases: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /**
                     * Format: uuid
                     * @description UUID, 8-4-4-4-12 hex digits; upper case is read as lower case
                     */
                    app_id: string;
                    /** @description 1-64 of [a-z0-9._-] */
                    channel?: string;
                    /** @description the update embedded in the binaries this release targets, per platform: devices still running it get a patch from it (docs/reference/delta-updates.md) */
                    embedded?: {
                        android?: {
                            /** @description the embedded launch asset (the bundle inside the binary), uploaded */
                            bundle: string;
                            /**
                             * Format: uuid
                             * @description the embedded update's id (the binary's app.manifest `id`): what a fresh install runs
                             */
                            update_id: string;
                        };
                        ios?: {
                            /** @description the embedded launch asset (the bundle inside the binary), uploaded */
                            bundle: string;
                            /**
                             * Format: uuid
                             * @description the embedded update's id (the binary's app.manifest `id`): what a fresh install runs
                             */
                            update_id: string;
                        };
                    };
                    /** @description the manifest's extra (up to 64 KB) */
                    extra?: {
                        [key: string]: unknown;
                    };
                    /** @description 1-64 of [A-Za-z0-9._:-] */
                    key_id?: string;
                    mandatory?: boolean;
                    notes?: string;
                    platforms: {
                        android?: {
                            assets: {
                                /** @description without the dot, as metadata.json */
                                ext: string;
                                /** @description an uploaded bundle of the app */
                                sha256: string;
                            }[];
                            /** @description an uploaded bundle of the app */
                            bundle: string;
                        };
                        ios?: {
                            assets: {
                                /** @description without the dot, as metadata.json */
                                ext: string;
                                /** @description an uploaded bundle of the app */
                                sha256: string;
                            }[];
                            /** @description an uploaded bundle of the app */
                            bundle: string;
                        };
                    };
                    rollout_pct?: number;
                    /** @description the app's runtime version (it becomes the release's fingerprint) */
                    runtime_version: string;
                    /** @description 1-64 ASCII letters, digits and . _ + ~ -, starting with a letter or a digit (1.4.2, 2.0.0-beta.1+45, 2026.11.22.0613): no spaces, no control characters */
                    version: string;
                };
            };
        };
        responses: {
            /** @description Default Response */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Release"] & {
                        expo: {
                            platforms: string[];
                            signed: boolean;
                        };
                    };
                };
            };
            202: components["responses"]["Status202"];
            400: components["responses"]["Status400"];
            401: components["responses"]["Status401"];
            402: components["responses"]["Status402"];
            403: components["responses"]["Status403"];
            404: components["responses"]["Status404"];
            503: components["responses"]["Status503"];
        };
    };
    postInvitationsAccept: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    token: string;
                };
            };
        };
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        role: "admin" | "developer" | "viewer";
                        /**
                         * Format: uuid
                         * @description UUID, 8-4-4-4-12 hex digits; upper case is read as lower case
                         */
                        workspace_id: string;
                    };
                };
            };
            400: components["responses"]["Status400"];
            401: components["responses"]["Status401"];
            403: components["responses"]["Status403"];
            404: components["responses"]["Status404"];
            410: components["responses"]["Status410"];
            503: components["responses"]["Status503"];
        };
    };
    getMe: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description With an API key limited to some apps: those apps. */
                        app_ids?: string[];
                        role: "viewer" | "developer" | "admin" | "owner";
                        user: {
                            email: string;
                            /**
                             * Format: uuid
                             * @description UUID, 8-4-4-4-12 hex digits; upper case is read as lower case
                             */
                            id: string;
                        } | null;
                        /**
                         * Format: uuid
                         * @description UUID, 8-4-4-4-12 hex digits; upper case is read as lower case
                         */
                        workspace_id: string;
                        workspaces: {
                            /**
                             * Format: uuid
                             * @description UUID, 8-4-4-4-12 hex digits; upper case is read as lower case
                             */
                            id: string;
                            name: string;
                            plan: "hobby" | "pro" | "team";
                            role: "viewer" | "developer" | "admin" | "owner";
                        }[];
                    };
                };
            };
            401: components["responses"]["Status401"];
            503: components["responses"]["Status503"];
        };
    };
    pushRelease: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "app_id": "3f6d2c1a-8b7e-4f5a-9c2d-1e0b7a6c5d4e",
                 *       "version": "1.4.2",
                 *       "sha256": "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855",
                 *       "channel": "production",
                 *       "rollout_pct": 10,
                 *       "mandatory": false,
                 *       "notes": "Fixes the checkout crash on Android 14",
                 *       "target_binary_range": "^1.4.0"
                 *     }
                 */
                "application/json": {
                    /**
                     * Format: uuid
                     * @description UUID, 8-4-4-4-12 hex digits; upper case is read as lower case
                     */
                    app_id: string;
                    capacitor?: {
                        /** @description the zip's SHA-256 in lower-case hex (an unsigned release: equal to sha256), or that digest encrypted with the RSA-2048 private key, PKCS #1 v1.5, in hex (512 characters; needs session_key and key_id) */
                        checksum: string;
                        /** @description the first 20 characters of the public key's PKCS #1 base64 (the plugin's `key_id`); with session_key */
                        key_id?: string;
                        /** @description `<IV base64>:<AES-128 key encrypted with the private key, base64>`: the bytes uploaded are the zip encrypted with AES-128-CBC (PKCS #7 padding) under that key and IV */
                        session_key?: string;
                    };
                    /** @description 1-64 of [a-z0-9._-] */
                    channel?: string;
                    fingerprint?: string | null;
                    mandatory?: boolean;
                    notes?: string;
                    rollout_pct?: number;
                    /** @description an uploaded bundle of the app */
                    sha256: string;
                    target_binary_range?: string | null;
                    /** @description 1-64 ASCII letters, digits and . _ + ~ -, starting with a letter or a digit (1.4.2, 2.0.0-beta.1+45, 2026.11.22.0613): no spaces, no control characters */
                    version: string;
                };
            };
        };
        responses: {
            /** @description The release, active */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "id": "9b1e4d7c-2a3f-4c5b-8d6e-7f0a1b2c3d4e",
                     *       "app_id": "3f6d2c1a-8b7e-4f5a-9c2d-1e0b7a6c5d4e",
                     *       "version": "1.4.2",
                     *       "channel": "production",
                     *       "rollout_pct": 10,
                     *       "mandatory": false,
                     *       "notes": "Fixes the checkout crash on Android 14",
                     *       "sha256": "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855",
                     *       "size": 1843200,
                     *       "fingerprint": null,
                     *       "target_binary_range": "^1.4.0",
                     *       "active": true,
                     *       "rolled_back_at": null,
                     *       "created_at": "2026-03-02T09:15:00.000Z",
                     *       "capacitor": null,
                     *       "paused": false,
                     *       "promoted_from": null
                     *     }
                     */
                    "application/json": components["schemas"]["Release"];
                };
            };
            400: components["responses"]["Status400"];
            401: components["responses"]["Status401"];
            402: components["responses"]["Status402"];
            403: components["responses"]["Status403"];
            404: components["responses"]["Status404"];
            409: components["responses"]["Status409"];
            503: components["responses"]["Status503"];
        };
    };
    getRelease: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description UUID, 8-4-4-4-12 hex digits; upper case is read as lower case */
                module_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ReleaseWithStats"];
                };
            };
            400: components["responses"]["Status400"];
            401: components["responses"]["Status401"];
            403: components["responses"]["Status403"];
            404: components["responses"]["Status404"];
            503: components["responses"]["Status503"];
        };
    };
    pauseRelease: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description UUID, 8-4-4-4-12 hex digits; upper case is read as lower case */
                module_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The release, paused */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "id": "9b1e4d7c-2a3f-4c5b-8d6e-7f0a1b2c3d4e",
                     *       "app_id": "3f6d2c1a-8b7e-4f5a-9c2d-1e0b7a6c5d4e",
                     *       "version": "1.4.2",
                     *       "channel": "production",
                     *       "rollout_pct": 50,
                     *       "mandatory": false,
                     *       "notes": "Fixes the checkout crash on Android 14",
                     *       "sha256": "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855",
                     *       "size": 1843200,
                     *       "fingerprint": null,
                     *       "target_binary_range": "^1.4.0",
                     *       "active": true,
                     *       "rolled_back_at": null,
                     *       "created_at": "2026-03-02T09:15:00.000Z",
                     *       "capacitor": null,
                     *       "paused": true,
                     *       "promoted_from": null
                     *     }
                     */
                    "application/json": components["schemas"]["Release"];
                };
            };
            400: components["responses"]["Status400"];
            401: components["responses"]["Status401"];
            403: components["responses"]["Status403"];
            404: components["responses"]["Status404"];
            409: components["responses"]["Status409"];
            503: components["responses"]["Status503"];
        };
    };
    promoteRelease: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description UUID, 8-4-4-4-12 hex digits; upper case is read as lower case */
                module_id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "channel": "production",
                 *       "rollout_pct": 10
                 *     }
                 */
                "application/json": {
                    /** @description 1-64 of [a-z0-9._-] */
                    channel: string;
                    /** @description sign the copy on your machine: the answer is a draft (202) holding the bytes to sign with this key; required for a signed release */
                    key_id?: string;
                    notes?: string;
                    rollout_pct?: number;
                };
            };
        };
        responses: {
            /** @description The promoted release */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "id": "9b1e4d7c-2a3f-4c5b-8d6e-7f0a1b2c3d4e",
                     *       "app_id": "3f6d2c1a-8b7e-4f5a-9c2d-1e0b7a6c5d4e",
                     *       "version": "1.4.2",
                     *       "channel": "production",
                     *       "rollout_pct": 10,
                     *       "mandatory": false,
                     *       "notes": "Fixes the checkout crash on Android 14",
                     *       "sha256": "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855",
                     *       "size": 1843200,
                     *       "fingerprint": null,
                     *       "target_binary_range": "^1.4.0",
                     *       "active": true,
                     *       "rolled_back_at": null,
                     *       "created_at": "2026-03-02T09:15:00.000Z",
                     *       "capacitor": null,
                     *       "paused": false,
                     *       "promoted_from": {
                     *         "module_id": "2e8f6a4c-1b3d-4e5f-8a9b-0c1d2e3f4a5b",
                     *         "channel": "staging"
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["Release"];
                };
            };
            202: components["responses"]["Status202"];
            400: components["responses"]["Status400"];
            401: components["responses"]["Status401"];
            402: components["responses"]["Status402"];
            403: components["responses"]["Status403"];
            404: components["responses"]["Status404"];
            409: components["responses"]["Status409"];
            503: components["responses"]["Status503"];
        };
    };
    resumeRelease: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description UUID, 8-4-4-4-12 hex digits; upper case is read as lower case */
                module_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The release, serving again at its rollout */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "id": "9b1e4d7c-2a3f-4c5b-8d6e-7f0a1b2c3d4e",
                     *       "app_id": "3f6d2c1a-8b7e-4f5a-9c2d-1e0b7a6c5d4e",
                     *       "version": "1.4.2",
                     *       "channel": "production",
                     *       "rollout_pct": 50,
                     *       "mandatory": false,
                     *       "notes": "Fixes the checkout crash on Android 14",
                     *       "sha256": "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855",
                     *       "size": 1843200,
                     *       "fingerprint": null,
                     *       "target_binary_range": "^1.4.0",
                     *       "active": true,
                     *       "rolled_back_at": null,
                     *       "created_at": "2026-03-02T09:15:00.000Z",
                     *       "capacitor": null,
                     *       "paused": false,
                     *       "promoted_from": null
                     *     }
                     */
                    "application/json": components["schemas"]["Release"];
                };
            };
            400: components["responses"]["Status400"];
            401: components["responses"]["Status401"];
            403: components["responses"]["Status403"];
            404: components["responses"]["Status404"];
            409: components["responses"]["Status409"];
            503: components["responses"]["Status503"];
        };
    };
    rollBackRelease: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description UUID, 8-4-4-4-12 hex digits; upper case is read as lower case */
                module_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The rolled-back release and the one now served */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "rolled_back": {
                     *         "id": "9b1e4d7c-2a3f-4c5b-8d6e-7f0a1b2c3d4e",
                     *         "app_id": "3f6d2c1a-8b7e-4f5a-9c2d-1e0b7a6c5d4e",
                     *         "version": "1.4.2",
                     *         "channel": "production",
                     *         "rollout_pct": 50,
                     *         "mandatory": false,
                     *         "notes": "Fixes the checkout crash on Android 14",
                     *         "sha256": "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855",
                     *         "size": 1843200,
                     *         "fingerprint": null,
                     *         "target_binary_range": "^1.4.0",
                     *         "active": false,
                     *         "rolled_back_at": "2026-03-02T11:40:00.000Z",
                     *         "created_at": "2026-03-02T09:15:00.000Z",
                     *         "capacitor": null,
                     *         "paused": false,
                     *         "promoted_from": null
                     *       },
                     *       "active": {
                     *         "id": "5c2a9e1f-7d3b-4a6c-9e8d-0f1a2b3c4d5e",
                     *         "app_id": "3f6d2c1a-8b7e-4f5a-9c2d-1e0b7a6c5d4e",
                     *         "version": "1.4.1",
                     *         "channel": "production",
                     *         "rollout_pct": 100,
                     *         "mandatory": false,
                     *         "notes": "Fixes the checkout crash on Android 14",
                     *         "sha256": "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855",
                     *         "size": 1843200,
                     *         "fingerprint": null,
                     *         "target_binary_range": "^1.4.0",
                     *         "active": true,
                     *         "rolled_back_at": null,
                     *         "created_at": "2026-03-02T09:15:00.000Z",
                     *         "capacitor": null,
                     *         "paused": false,
                     *         "promoted_from": null
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["Rollback"];
                };
            };
            400: components["responses"]["Status400"];
            401: components["responses"]["Status401"];
            403: components["responses"]["Status403"];
            404: components["responses"]["Status404"];
            409: components["responses"]["Status409"];
            503: components["responses"]["Status503"];
        };
    };
    changeRollout: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description UUID, 8-4-4-4-12 hex digits; upper case is read as lower case */
                module_id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "rollout_pct": 50
                 *     }
                 */
                "application/json": {
                    rollout_pct: number;
                };
            };
        };
        responses: {
            200: components["responses"]["Status200_5"];
            400: components["responses"]["Status400"];
            401: components["responses"]["Status401"];
            402: components["responses"]["Status402"];
            403: components["responses"]["Status403"];
            404: components["responses"]["Status404"];
            409: components["responses"]["Status409"];
            503: components["responses"]["Status503"];
        };
    };
    changeRolloutPatch: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description UUID, 8-4-4-4-12 hex digits; upper case is read as lower case */
                module_id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "rollout_pct": 50
                 *     }
                 */
                "application/json": {
                    rollout_pct: number;
                };
            };
        };
        responses: {
            200: components["responses"]["Status200_5"];
            400: components["responses"]["Status400"];
            401: components["responses"]["Status401"];
            402: components["responses"]["Status402"];
            403: components["responses"]["Status403"];
            404: components["responses"]["Status404"];
            409: components["responses"]["Status409"];
            503: components["responses"]["Status503"];
        };
    };
    putModulesSignatures: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description UUID, 8-4-4-4-12 hex digits; upper case is read as lower case */
                module_id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** @description part -> base64 RSA-SHA256 (PKCS #1 v1.5) signature of the bytes the draft gave */
                    signatures: {
                        [key: string]: string;
                    };
                };
            };
        };
        responses: {
            /** @description A release (module): a bundle pushed to a channel */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Release"];
                };
            };
            400: components["responses"]["Status400"];
            401: components["responses"]["Status401"];
            402: components["responses"]["Status402"];
            403: components["responses"]["Status403"];
            404: components["responses"]["Status404"];
            503: components["responses"]["Status503"];
        };
    };
    postModulesCompatibility: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /**
                     * Format: uuid
                     * @description UUID, 8-4-4-4-12 hex digits; upper case is read as lower case
                     */
                    app_id: string;
                    /** @description 1-64 of [a-z0-9._-] */
                    channel?: string;
                    fingerprint?: string;
                    /** @description an Expo runtime version (as fingerprint) */
                    runtime_version?: string;
                    target_binary_range?: string;
                };
            };
        };
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        channel: string;
                        /** @description true when at least one device seen could run the release */
                        compatible: boolean;
                        /** @description of those, the devices the requirements admit */
                        compatible_devices: number;
                        /** @description devices whose latest check in the window was on the channel */
                        devices_seen: number;
                        /** @description DEVICE_WINDOW_DAYS */
                        window_days: number;
                    };
                };
            };
            400: components["responses"]["Status400"];
            401: components["responses"]["Status401"];
            403: components["responses"]["Status403"];
            404: components["responses"]["Status404"];
            503: components["responses"]["Status503"];
        };
    };
    postModulesDrafts: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /**
                     * Format: uuid
                     * @description UUID, 8-4-4-4-12 hex digits; upper case is read as lower case
                     */
                    app_id: string;
                    capacitor?: {
                        /** @description the zip's SHA-256 in lower-case hex (an unsigned release: equal to sha256), or that digest encrypted with the RSA-2048 private key, PKCS #1 v1.5, in hex (512 characters; needs session_key and key_id) */
                        checksum: string;
                        /** @description the first 20 characters of the public key's PKCS #1 base64 (the plugin's `key_id`); with session_key */
                        key_id?: string;
                        /** @description `<IV base64>:<AES-128 key encrypted with the private key, base64>`: the bytes uploaded are the zip encrypted with AES-128-CBC (PKCS #7 padding) under that key and IV */
                        session_key?: string;
                    };
                    /** @description 1-64 of [a-z0-9._-] */
                    channel?: string;
                    fingerprint?: string | null;
                    /** @description 1-64 of [A-Za-z0-9._:-] */
                    key_id: string;
                    mandatory?: boolean;
                    notes?: string;
                    rollout_pct?: number;
                    /** @description an uploaded bundle of the app */
                    sha256: string;
                    target_binary_range?: string | null;
                    /** @description 1-64 ASCII letters, digits and . _ + ~ -, starting with a letter or a digit (1.4.2, 2.0.0-beta.1+45, 2026.11.22.0613): no spaces, no control characters */
                    version: string;
                };
            };
        };
        responses: {
            202: components["responses"]["Status202"];
            400: components["responses"]["Status400"];
            401: components["responses"]["Status401"];
            402: components["responses"]["Status402"];
            403: components["responses"]["Status403"];
            404: components["responses"]["Status404"];
            503: components["responses"]["Status503"];
        };
    };
    lookupReleases: {
        parameters: {
            query: {
                /** @description UUID, 8-4-4-4-12 hex digits; upper case is read as lower case */
                app_id?: string;
                /** @description 1-64 of [a-z0-9._-] */
                channel?: string;
                /** @description an exact release version, or the first 6 or more characters of a release id */
                ref: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        matches: components["schemas"]["Release"][];
                    };
                };
            };
            400: components["responses"]["Status400"];
            401: components["responses"]["Status401"];
            403: components["responses"]["Status403"];
            404: components["responses"]["Status404"];
            503: components["responses"]["Status503"];
        };
    };
    preflightRelease: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /**
                     * Format: uuid
                     * @description UUID, 8-4-4-4-12 hex digits; upper case is read as lower case
                     */
                    app_id: string;
                    /** @description 1-64 of [a-z0-9._-] */
                    channel?: string;
                    rollout_pct?: number;
                    /** @description bytes to be uploaded */
                    size?: number;
                    /** @description the version the push will use */
                    version?: string;
                };
            };
        };
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @enum {boolean} */
                        allowed: true;
                        /**
                         * Format: uuid
                         * @description UUID, 8-4-4-4-12 hex digits; upper case is read as lower case
                         */
                        app_id: string;
                        channel: string;
                        rollout_pct: number;
                    };
                };
            };
            400: components["responses"]["Status400"];
            401: components["responses"]["Status401"];
            402: components["responses"]["Status402"];
            403: components["responses"]["Status403"];
            404: components["responses"]["Status404"];
            409: components["responses"]["Status409"];
            413: components["responses"]["Status413"];
            503: components["responses"]["Status503"];
        };
    };
    checkForUpdate: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "app_id": "3f6d2c1a-8b7e-4f5a-9c2d-1e0b7a6c5d4e",
                 *       "device_id": "device-7c1f0a",
                 *       "channel": "production",
                 *       "current_module_id": "5c2a9e1f-7d3b-4a6c-9e8d-0f1a2b3c4d5e",
                 *       "app_version": "1.4.0",
                 *       "platform": "android"
                 *     }
                 */
                "application/json": {
                    /**
                     * Format: uuid
                     * @description UUID, 8-4-4-4-12 hex digits; upper case is read as lower case
                     */
                    app_id: string;
                    app_version?: string | null;
                    channel?: string | null;
                    current_module_id?: string | null;
                    device_id: string;
                    fingerprint?: string | null;
                    platform?: string | null;
                };
            };
        };
        responses: {
            /** @description The release to install, or `{update: null}` */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "update": {
                     *         "module_id": "9b1e4d7c-2a3f-4c5b-8d6e-7f0a1b2c3d4e",
                     *         "version": "1.4.2",
                     *         "sha256": "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855",
                     *         "size": 1843200,
                     *         "url": "https://ota.example.com/api/v1/bundles/e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855",
                     *         "mandatory": false,
                     *         "notes": "Fixes the checkout crash on Android 14"
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["UpdateCheck"];
                };
            };
            400: components["responses"]["Status400"];
            404: components["responses"]["Status404"];
            413: components["responses"]["Status413"];
            415: components["responses"]["Status415"];
            429: components["responses"]["Status429"];
            503: components["responses"]["Status503"];
        };
    };
    getWorkspacesById: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description UUID, 8-4-4-4-12 hex digits; upper case is read as lower case */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /**
                         * Format: uuid
                         * @description UUID, 8-4-4-4-12 hex digits; upper case is read as lower case
                         */
                        id: string;
                        name: string;
                        /** @description hobby (Hobby, free), pro (Startup) or team (Enterprise) */
                        plan: "hobby" | "pro" | "team";
                    };
                };
            };
            400: components["responses"]["Status400"];
            401: components["responses"]["Status401"];
            403: components["responses"]["Status403"];
            404: components["responses"]["Status404"];
            503: components["responses"]["Status503"];
        };
    };
    getWorkspacesApiKeys: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description UUID, 8-4-4-4-12 hex digits; upper case is read as lower case */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        api_keys: {
                            /** @description The apps the key is limited to: it sees and acts on those only (other apps 404) and never on workspace-wide resources (members, invitations, webhooks, keys, plan, new apps: 403). Null: every app. */
                            app_ids: string[] | null;
                            /** Format: date-time */
                            created_at: string;
                            /** @description The member the key belongs to: who made it, or made the key it was made with. Removing that member revokes the key; a role change caps it at the new role. Null for keys made before this was recorded. */
                            created_by: {
                                email: string;
                                /**
                                 * Format: uuid
                                 * @description UUID, 8-4-4-4-12 hex digits; upper case is read as lower case
                                 */
                                id: string;
                            } | null;
                            /** @description When the key stops working (401 `api_key_expired` from then on); null: never. */
                            expires_at: string | null;
                            /**
                             * Format: uuid
                             * @description UUID, 8-4-4-4-12 hex digits; upper case is read as lower case
                             */
                            id: string;
                            last_used_at: string | null;
                            name: string;
                            role: "admin" | "developer" | "viewer";
                        }[];
                    };
                };
            };
            401: components["responses"]["Status401"];
            403: components["responses"]["Status403"];
            503: components["responses"]["Status503"];
        };
    };
    postWorkspacesApiKeys: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description UUID, 8-4-4-4-12 hex digits; upper case is read as lower case */
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** @description Limits the key to these apps of the workspace (at most 100). */
                    app_ids?: string[];
                    /**
                     * Format: date-time
                     * @description When the key stops working: in the future, at most a year away. Within its last 14 days the weekly `api_key.expiring` webhook event names it, once.
                     */
                    expires_at?: string;
                    name: string;
                    role?: "admin" | "developer" | "viewer";
                };
            };
        };
        responses: {
            /** @description Default Response */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description The apps the key is limited to: it sees and acts on those only (other apps 404) and never on workspace-wide resources (members, invitations, webhooks, keys, plan, new apps: 403). Null: every app. */
                        app_ids: string[] | null;
                        /** Format: date-time */
                        created_at: string;
                        /** @description The member the key belongs to: who made it, or made the key it was made with. Removing that member revokes the key; a role change caps it at the new role. Null for keys made before this was recorded. */
                        created_by: {
                            email: string;
                            /**
                             * Format: uuid
                             * @description UUID, 8-4-4-4-12 hex digits; upper case is read as lower case
                             */
                            id: string;
                        } | null;
                        /** @description When the key stops working (401 `api_key_expired` from then on); null: never. */
                        expires_at: string | null;
                        /**
                         * Format: uuid
                         * @description UUID, 8-4-4-4-12 hex digits; upper case is read as lower case
                         */
                        id: string;
                        last_used_at: string | null;
                        name: string;
                        role: "admin" | "developer" | "viewer";
                    } & {
                        key: string;
                    };
                };
            };
            400: components["responses"]["Status400"];
            401: components["responses"]["Status401"];
            403: components["responses"]["Status403"];
            503: components["responses"]["Status503"];
        };
    };
    deleteWorkspacesApiKeysById: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description UUID, 8-4-4-4-12 hex digits; upper case is read as lower case */
                id: string;
                /** @description UUID, 8-4-4-4-12 hex digits; upper case is read as lower case */
                key_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            204: components["responses"]["Status204"];
            401: components["responses"]["Status401"];
            403: components["responses"]["Status403"];
            404: components["responses"]["Status404"];
            503: components["responses"]["Status503"];
        };
    };
    getWorkspacesAuditVerify: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description UUID, 8-4-4-4-12 hex digits; upper case is read as lower case */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description entries checked, up to and including the first broken one */
                        entries: number;
                        first_broken_id: string | null;
                        first_broken_seq: number | null;
                        /** @description hash of the newest entry that verified */
                        head_hash: string;
                        ok: boolean;
                        reason: "hash_mismatch" | "prev_hash_mismatch" | null;
                        /**
                         * Format: uuid
                         * @description UUID, 8-4-4-4-12 hex digits; upper case is read as lower case
                         */
                        workspace_id: string;
                    };
                };
            };
            400: components["responses"]["Status400"];
            401: components["responses"]["Status401"];
            402: components["responses"]["Status402"];
            403: components["responses"]["Status403"];
            503: components["responses"]["Status503"];
        };
    };
    getWorkspacesDevices: {
        parameters: {
            query: {
                /** @description devices per page, 1-200 */
                limit: number;
                /** @description devices to skip, most recently seen first; past the end gives an empty page */
                offset: number;
            };
            header?: never;
            path: {
                /** @description UUID, 8-4-4-4-12 hex digits; upper case is read as lower case */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description the plan's device cap; null = unlimited (nothing is counted) */
                        device_cap: number | null;
                        devices: {
                            device_id: string;
                            /** Format: date-time */
                            last_seen_at: string;
                        }[];
                        limit: number;
                        /** @description null on the last page */
                        next_offset: number | null;
                        offset: number;
                        /** @description devices counted against the cap now (seen within the window) */
                        total: number;
                        /** @description length of the active window, in days */
                        window_days: number;
                    };
                };
            };
            400: components["responses"]["Status400"];
            401: components["responses"]["Status401"];
            403: components["responses"]["Status403"];
            404: components["responses"]["Status404"];
            503: components["responses"]["Status503"];
        };
    };
    deleteWorkspacesDevicesById: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description the device id as the device sends it: 1-128 of A-Za-z0-9._:- */
                device_id: string;
                /** @description UUID, 8-4-4-4-12 hex digits; upper case is read as lower case */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description released */
            204: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            400: components["responses"]["Status400"];
            401: components["responses"]["Status401"];
            403: components["responses"]["Status403"];
            404: components["responses"]["Status404"];
            503: components["responses"]["Status503"];
        };
    };
    getWorkspacesIngest: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description UUID, 8-4-4-4-12 hex digits; upper case is read as lower case */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        apps: {
                            /**
                             * Format: uuid
                             * @description UUID, 8-4-4-4-12 hex digits; upper case is read as lower case
                             */
                            app_id: string;
                            dead_letters: {
                                /** @description stream entries (device requests) set aside */
                                entries: number;
                                /** @description events in them */
                                events: number;
                            };
                            last_at: string | null;
                            name: string;
                        }[];
                        dead_letters: {
                            /** @description stream entries (device requests) set aside */
                            entries: number;
                            /** @description events in them */
                            events: number;
                        };
                    };
                };
            };
            400: components["responses"]["Status400"];
            401: components["responses"]["Status401"];
            403: components["responses"]["Status403"];
            503: components["responses"]["Status503"];
        };
    };
    getWorkspacesMembers: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description UUID, 8-4-4-4-12 hex digits; upper case is read as lower case */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        members: {
                            /** Format: date-time */
                            created_at: string;
                            email: string;
                            /**
                             * Format: uuid
                             * @description UUID, 8-4-4-4-12 hex digits; upper case is read as lower case
                             */
                            id: string;
                            /** @description owner, admin, developer or viewer */
                            role: "owner" | "admin" | "developer" | "viewer";
                            /** @description invited until the invitee accepts the invitation (POST /invitations/accept); active from then on */
                            status: "active" | "invited";
                        }[];
                    };
                };
            };
            400: components["responses"]["Status400"];
            401: components["responses"]["Status401"];
            403: components["responses"]["Status403"];
            503: components["responses"]["Status503"];
        };
    };
    postWorkspacesMembers: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description UUID, 8-4-4-4-12 hex digits; upper case is read as lower case */
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** Format: email */
                    email: string;
                    /** @description admin, developer or viewer (not owner) */
                    role: "admin" | "developer" | "viewer";
                };
            };
        };
        responses: {
            /** @description Default Response */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** Format: date-time */
                        created_at: string;
                        email: string;
                        /**
                         * Format: uuid
                         * @description UUID, 8-4-4-4-12 hex digits; upper case is read as lower case
                         */
                        id: string;
                        /** @description owner, admin, developer or viewer */
                        role: "owner" | "admin" | "developer" | "viewer";
                        /** @description invited until the invitee accepts the invitation (POST /invitations/accept); active from then on */
                        status: "active" | "invited";
                    } & {
                        /** @description The one-time token the invitee accepts with (POST /invitations/accept). */
                        invitation: {
                            /** @description true when SMTP_URL is set and the mail server took the message */
                            emailed: boolean;
                            /** Format: date-time */
                            expires_at: string;
                            /** @description shown only here; stored as its SHA-256 */
                            token: string;
                            /** @description PUBLIC_URL + the console page that accepts the token */
                            url: string;
                        };
                    };
                };
            };
            400: components["responses"]["Status400"];
            401: components["responses"]["Status401"];
            402: components["responses"]["Status402"];
            403: components["responses"]["Status403"];
            409: components["responses"]["Status409"];
            503: components["responses"]["Status503"];
        };
    };
    deleteWorkspacesMembersById: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description UUID, 8-4-4-4-12 hex digits; upper case is read as lower case */
                id: string;
                /** @description UUID, 8-4-4-4-12 hex digits; upper case is read as lower case */
                member_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description removed */
            204: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            400: components["responses"]["Status400"];
            401: components["responses"]["Status401"];
            403: components["responses"]["Status403"];
            404: components["responses"]["Status404"];
            409: components["responses"]["Status409"];
            503: components["responses"]["Status503"];
        };
    };
    patchWorkspacesMembersById: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description UUID, 8-4-4-4-12 hex digits; upper case is read as lower case */
                id: string;
                /** @description UUID, 8-4-4-4-12 hex digits; upper case is read as lower case */
                member_id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** @description owner, admin, developer or viewer */
                    role: "owner" | "admin" | "developer" | "viewer";
                };
            };
        };
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** Format: date-time */
                        created_at: string;
                        email: string;
                        /**
                         * Format: uuid
                         * @description UUID, 8-4-4-4-12 hex digits; upper case is read as lower case
                         */
                        id: string;
                        /** @description owner, admin, developer or viewer */
                        role: "owner" | "admin" | "developer" | "viewer";
                        /** @description invited until the invitee accepts the invitation (POST /invitations/accept); active from then on */
                        status: "active" | "invited";
                    };
                };
            };
            400: components["responses"]["Status400"];
            401: components["responses"]["Status401"];
            403: components["responses"]["Status403"];
            404: components["responses"]["Status404"];
            409: components["responses"]["Status409"];
            503: components["responses"]["Status503"];
        };
    };
    putWorkspacesPlan: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description UUID, 8-4-4-4-12 hex digits; upper case is read as lower case */
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** @description hobby (Hobby, free), pro (Startup) or team (Enterprise) */
                    plan: "hobby" | "pro" | "team";
                };
            };
        };
        responses: {
            200: components["responses"]["Status200_4"];
            400: components["responses"]["Status400"];
            401: components["responses"]["Status401"];
            403: components["responses"]["Status403"];
            404: components["responses"]["Status404"];
            503: components["responses"]["Status503"];
        };
    };
    patchWorkspacesPlan: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description UUID, 8-4-4-4-12 hex digits; upper case is read as lower case */
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** @description hobby (Hobby, free), pro (Startup) or team (Enterprise) */
                    plan: "hobby" | "pro" | "team";
                };
            };
        };
        responses: {
            200: components["responses"]["Status200_4"];
            400: components["responses"]["Status400"];
            401: components["responses"]["Status401"];
            403: components["responses"]["Status403"];
            404: components["responses"]["Status404"];
            503: components["responses"]["Status503"];
        };
    };
    getWorkspacesUsage: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description UUID, 8-4-4-4-12 hex digits; upper case is read as lower case */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description distinct devices the plan serves; null = unlimited */
                        device_cap: number | null;
                        /** @description distinct devices served over the active window (a HyperLogLog estimate) */
                        distinct_devices: number;
                        /** @description members the plan allows; null = unlimited */
                        member_cap: number | null;
                        /** @description members counted against the cap: active and invited, owner included */
                        members: number;
                        /** @description hobby (Hobby, free), pro (Startup) or team (Enterprise) */
                        plan: "hobby" | "pro" | "team";
                        /** @description distinct devices answered "no update" over the last 24 hours, by reason (estimates) */
                        refused_devices: {
                            /** @description refused because the plan counts no more devices */
                            device_cap: number;
                            /** @description refused by RATE_LIMIT_NEW_DEVICES_PER_ADDRESS_PER_HOUR (an opt-in; 0 when off) */
                            new_device_limit: number;
                        };
                        /** @description length of the active window, in days */
                        window_days: number;
                    };
                };
            };
            400: components["responses"]["Status400"];
            401: components["responses"]["Status401"];
            403: components["responses"]["Status403"];
            404: components["responses"]["Status404"];
            503: components["responses"]["Status503"];
        };
    };
    listWebhooks: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description UUID, 8-4-4-4-12 hex digits; upper case is read as lower case */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        webhooks: components["schemas"]["Webhook"][];
                    };
                };
            };
            401: components["responses"]["Status401"];
            403: components["responses"]["Status403"];
            503: components["responses"]["Status503"];
        };
    };
    createWebhook: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description UUID, 8-4-4-4-12 hex digits; upper case is read as lower case */
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "url": "https://hooks.example.com/ota",
                 *       "events": [
                 *         "release.pushed",
                 *         "rollout.changed",
                 *         "rollback",
                 *         "error_spike"
                 *       ]
                 *     }
                 */
                "application/json": {
                    events: ("release.pushed" | "rollout.changed" | "rollback" | "error_spike" | "api_key.expiring")[];
                    url: string;
                };
            };
        };
        responses: {
            /** @description The webhook with its signing secret */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "id": "0d4c8b2a-6e1f-4a3b-9c5d-7e8f9a0b1c2d",
                     *       "url": "https://hooks.example.com/ota",
                     *       "events": [
                     *         "release.pushed",
                     *         "rollout.changed",
                     *         "rollback",
                     *         "error_spike"
                     *       ],
                     *       "is_active": true,
                     *       "created_at": "2026-03-01T08:00:00.000Z",
                     *       "secret": "whsec_5d2f8a1c9e7b4d6f0a3c8e1b7d9f2a4c"
                     *     }
                     */
                    "application/json": components["schemas"]["CreatedWebhook"];
                };
            };
            400: components["responses"]["Status400"];
            401: components["responses"]["Status401"];
            403: components["responses"]["Status403"];
            409: components["responses"]["Status409"];
            503: components["responses"]["Status503"];
        };
    };
    deleteWebhook: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description UUID, 8-4-4-4-12 hex digits; upper case is read as lower case */
                id: string;
                /** @description UUID, 8-4-4-4-12 hex digits; upper case is read as lower case */
                webhook_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            204: components["responses"]["Status204"];
            401: components["responses"]["Status401"];
            403: components["responses"]["Status403"];
            404: components["responses"]["Status404"];
            503: components["responses"]["Status503"];
        };
    };
    listWebhookDeliveries: {
        parameters: {
            query: {
                limit: number;
                offset: number;
            };
            header?: never;
            path: {
                /** @description UUID, 8-4-4-4-12 hex digits; upper case is read as lower case */
                id: string;
                /** @description UUID, 8-4-4-4-12 hex digits; upper case is read as lower case */
                webhook_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        deliveries: components["schemas"]["WebhookDelivery"][];
                    };
                };
            };
            400: components["responses"]["Status400"];
            401: components["responses"]["Status401"];
            403: components["responses"]["Status403"];
            404: components["responses"]["Status404"];
            503: components["responses"]["Status503"];
        };
    };
    getWebhookDelivery: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description UUID, 8-4-4-4-12 hex digits; upper case is read as lower case */
                delivery_id: string;
                /** @description UUID, 8-4-4-4-12 hex digits; upper case is read as lower case */
                id: string;
                /** @description UUID, 8-4-4-4-12 hex digits; upper case is read as lower case */
                webhook_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["WebhookDeliveryDetail"];
                };
            };
            401: components["responses"]["Status401"];
            403: components["responses"]["Status403"];
            404: components["responses"]["Status404"];
            503: components["responses"]["Status503"];
        };
    };
    redeliverWebhookDelivery: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description UUID, 8-4-4-4-12 hex digits; upper case is read as lower case */
                delivery_id: string;
                /** @description UUID, 8-4-4-4-12 hex digits; upper case is read as lower case */
                id: string;
                /** @description UUID, 8-4-4-4-12 hex digits; upper case is read as lower case */
                webhook_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            202: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /**
                         * Format: uuid
                         * @description UUID, 8-4-4-4-12 hex digits; upper case is read as lower case
                         */
                        delivery_id: string;
                        /** @enum {string} */
                        status: "pending";
                    };
                };
            };
            401: components["responses"]["Status401"];
            403: components["responses"]["Status403"];
            404: components["responses"]["Status404"];
            409: components["responses"]["Status409"];
            503: components["responses"]["Status503"];
        };
    };
    pingWebhook: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description UUID, 8-4-4-4-12 hex digits; upper case is read as lower case */
                id: string;
                /** @description UUID, 8-4-4-4-12 hex digits; upper case is read as lower case */
                webhook_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            202: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /**
                         * Format: uuid
                         * @description UUID, 8-4-4-4-12 hex digits; upper case is read as lower case
                         */
                        delivery_id: string;
                        /** @enum {string} */
                        event: "ping";
                    };
                };
            };
            401: components["responses"]["Status401"];
            403: components["responses"]["Status403"];
            404: components["responses"]["Status404"];
            409: components["responses"]["Status409"];
            503: components["responses"]["Status503"];
        };
    };
    getHealthz: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @enum {string} */
                        status: "ok";
                    };
                };
            };
        };
    };
    getMetrics: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description every series of this process */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "text/plain": string;
                };
            };
            /** @description No or wrong operator token (`unauthorized`) */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description No OPERATOR_TOKEN is set (`not_found`) */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    getReadyz: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description operators only: `ok` or why not */
                        checks?: {
                            [key: string]: string;
                        };
                        /** @description operators only: see docs/operations/processes-and-scaling.md */
                        details?: {
                            [key: string]: unknown;
                        };
                        /** @enum {string} */
                        status: "ready";
                    };
                };
            };
            /** @description Not ready (`not_ready`); operators also see `checks` and `details` */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @description operators only: `ok` or why not */
                        checks?: {
                            [key: string]: string;
                        };
                        /** @description operators only: see docs/operations/processes-and-scaling.md */
                        details?: {
                            [key: string]: unknown;
                        };
                    };
                };
            };
        };
    };
    postReportStatusDeploy: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** @description the native app version (semver; "1.2" and "3" read as 1.2.0 and 3.0.0) */
                    appVersion: string;
                    /** @description the device id: 1-128 of A-Za-z0-9._:-; it picks the rollout bucket */
                    clientUniqueId?: string;
                    /** @description the deployment key (app and channel) */
                    deploymentKey: string;
                    /** @description a release version */
                    label?: string;
                    /** @description the key the device used before */
                    previousDeploymentKey?: string;
                    /** @description what the device ran before */
                    previousLabelOrAppVersion?: string;
                    /** @description required with a label */
                    status?: "DeploymentSucceeded" | "DeploymentFailed";
                };
            };
        };
        responses: {
            200: components["responses"]["Status200"];
            400: components["responses"]["Status400"];
            404: components["responses"]["Status404"];
            413: components["responses"]["Status413"];
            415: components["responses"]["Status415"];
            429: components["responses"]["Status429"];
            503: components["responses"]["Status503"];
        };
    };
    postReportStatusDownload: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** @description the device id: 1-128 of A-Za-z0-9._:-; it picks the rollout bucket */
                    clientUniqueId: string;
                    /** @description the deployment key (app and channel) */
                    deploymentKey: string;
                    /** @description a release version */
                    label: string;
                };
            };
        };
        responses: {
            200: components["responses"]["Status200"];
            400: components["responses"]["Status400"];
            404: components["responses"]["Status404"];
            413: components["responses"]["Status413"];
            415: components["responses"]["Status415"];
            429: components["responses"]["Status429"];
            503: components["responses"]["Status503"];
        };
    };
    getUpdateCheck: {
        parameters: {
            query: {
                /** @description the native app version (semver; "1.2" and "3" read as 1.2.0 and 3.0.0) */
                appVersion: string;
                /** @description the device id: 1-128 of A-Za-z0-9._:-; it picks the rollout bucket */
                clientUniqueId: string;
                /** @description the deployment key (app and channel) */
                deploymentKey: string;
                /** @description accepted and ignored: binary ranges always apply */
                isCompanion?: "true" | "false";
                /** @description a release version */
                label?: string;
                /** @description hash of the package the device runs */
                packageHash?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        updateInfo: {
                            appVersion: string;
                            description: string;
                            downloadURL: string;
                            isAvailable: boolean;
                            isMandatory: boolean;
                            label: string;
                            packageHash: string;
                            packageSize: number;
                            shouldRunBinaryVersion: boolean;
                            target_binary_range: string;
                            updateAppVersion: boolean;
                        };
                    };
                };
            };
            400: components["responses"]["Status400"];
            404: components["responses"]["Status404"];
            429: components["responses"]["Status429"];
            503: components["responses"]["Status503"];
        };
    };
    postV01PublicCodepushReportStatusDeploy: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** @description the native app version (semver; "1.2" and "3" read as 1.2.0 and 3.0.0) */
                    app_version: string;
                    /** @description the device id: 1-128 of A-Za-z0-9._:-; it picks the rollout bucket */
                    client_unique_id?: string;
                    /** @description the deployment key (app and channel) */
                    deployment_key: string;
                    /** @description a release version */
                    label?: string;
                    /** @description the key the device used before */
                    previous_deployment_key?: string;
                    /** @description what the device ran before */
                    previous_label_or_app_version?: string;
                    /** @description required with a label */
                    status?: "DeploymentSucceeded" | "DeploymentFailed";
                };
            };
        };
        responses: {
            200: components["responses"]["Status200"];
            400: components["responses"]["Status400"];
            404: components["responses"]["Status404"];
            413: components["responses"]["Status413"];
            415: components["responses"]["Status415"];
            429: components["responses"]["Status429"];
            503: components["responses"]["Status503"];
        };
    };
    postV01PublicCodepushReportStatusDownload: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** @description the device id: 1-128 of A-Za-z0-9._:-; it picks the rollout bucket */
                    client_unique_id: string;
                    /** @description the deployment key (app and channel) */
                    deployment_key: string;
                    /** @description a release version */
                    label: string;
                };
            };
        };
        responses: {
            200: components["responses"]["Status200"];
            400: components["responses"]["Status400"];
            404: components["responses"]["Status404"];
            413: components["responses"]["Status413"];
            415: components["responses"]["Status415"];
            429: components["responses"]["Status429"];
            503: components["responses"]["Status503"];
        };
    };
    getV01PublicCodepushUpdateCheck: {
        parameters: {
            query: {
                /** @description the native app version (semver; "1.2" and "3" read as 1.2.0 and 3.0.0) */
                app_version: string;
                /** @description the device id: 1-128 of A-Za-z0-9._:-; it picks the rollout bucket */
                client_unique_id: string;
                /** @description the deployment key (app and channel) */
                deployment_key: string;
                /** @description accepted and ignored: binary ranges always apply */
                is_companion?: "true" | "false";
                /** @description a release version */
                label?: string;
                /** @description hash of the package the device runs */
                package_hash?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        update_info: {
                            app_version: string;
                            /** @description the release notes */
                            description: string;
                            /** @description absolute URL of the package bytes; "" when none */
                            download_url: string;
                            is_available: boolean;
                            is_mandatory: boolean;
                            /** @description the release version */
                            label: string;
                            /** @description the release sha256 */
                            package_hash: string;
                            /** @description bytes */
                            package_size: number;
                            should_run_binary_version: boolean;
                            /** @description the device's own app_version when an update is available (clients keep it with the package and discard a package whose version differs from the binary); otherwise the newest release range, or * */
                            target_binary_range: string;
                            update_app_version: boolean;
                        };
                    };
                };
            };
            400: components["responses"]["Status400"];
            404: components["responses"]["Status404"];
            429: components["responses"]["Status429"];
            503: components["responses"]["Status503"];
        };
    };
}
