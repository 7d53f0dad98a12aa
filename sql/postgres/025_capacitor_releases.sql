-- Capacitor releases (@capgo/capacitor-updater; docs/reference/capacitor-protocol.md): what the plugin must
-- receive besides the bytes, made on the developer's machine (`ota release --capacitor`).
--
-- capacitor_checksum: the `checksum` of the update answer. Either the lower-case hex SHA-256 of the zip (then
--   equal to the release's sha256), or that digest encrypted with the developer's RSA-2048 private key
--   (PKCS #1 v1.5, 512 hex characters), which the plugin decrypts with the public key the app ships.
-- capacitor_session_key: `<iv base64>:<AES-128 key, RSA-encrypted with the private key, base64>` of a release
--   whose bytes are the AES-128-CBC encrypted zip; the plugin takes a signed checksum only with it.
-- capacitor_key_id: the first 20 characters of the public key's PKCS #1 base64, as the plugin computes the
--   `key_id` it sends, so a device is served only releases made with its key.
-- All null: a release that is no Capacitor release in particular (its bytes may still be a zip served as is).
ALTER TABLE releases
  ADD COLUMN capacitor_checksum text,
  ADD COLUMN capacitor_session_key text,
  ADD COLUMN capacitor_key_id text,
  ADD CONSTRAINT releases_capacitor_shape CHECK (
    (capacitor_session_key IS NULL AND capacitor_key_id IS NULL)
    OR (capacitor_checksum IS NOT NULL AND capacitor_session_key IS NOT NULL AND capacitor_key_id IS NOT NULL)
  );
