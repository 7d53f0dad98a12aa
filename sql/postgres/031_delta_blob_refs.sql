-- Blob retention keeps the blobs deltas name (docs/operations/storage.md): a patch or a diff package is not
-- uploaded by anyone and no release names it, yet devices download it while its row exists. The sweep asks
-- per blob, so the column is indexed.
CREATE INDEX release_deltas_blob_idx ON release_deltas (blob_sha256);
