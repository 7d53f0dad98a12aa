# One image for every process of the service; docker-compose.yml picks the entry point:
#   api      node dist/src/main.js
#   workers  node --min-semi-space-size=64 --max-semi-space-size=64 dist/workers/main.js (scripts/node-flags.mjs says why)
#   migrate  node dist/src/migrate.js

FROM node:22-bookworm-slim AS build
WORKDIR /app
ENV CI=true
# Dependencies first, so this layer is reused until the lock file changes. `bootstrap.mjs deps` is
# `npm ci`, falling back to `npm install` (same locked versions) when npm 11 refuses a lock file that
# lacks other platforms' optional packages.
COPY package.json package-lock.json ./
# The workspace packages' manifests: `npm ci` links node_modules/@ota/* to these folders.
COPY shared/package.json shared/package.json
COPY client/package.json client/package.json
COPY sdk/package.json sdk/package.json
COPY scripts/bootstrap.mjs scripts/bootstrap.mjs
COPY scripts/services scripts/services
RUN node scripts/bootstrap.mjs deps
COPY . .
RUN npm run build \
 && npm run build:console \
 && npm prune --omit=dev --no-audit --no-fund

FROM node:22-bookworm-slim
# The deltas worker makes Expo patches with Debian's bsdiff (classic BSDIFF40, what expo-updates applies).
RUN apt-get update && apt-get install -y --no-install-recommends bsdiff && rm -rf /var/lib/apt/lists/*
WORKDIR /app
ENV NODE_ENV=production \
    HOST=0.0.0.0 \
    PORT=8080 \
    BLOB_DIR=/data/blobs
COPY --from=build /app/package.json /app/package-lock.json ./
COPY --from=build /app/node_modules ./node_modules
COPY --from=build /app/dist ./dist
# The compiled service imports @ota/shared and @ota/client by name: node_modules/@ota/* link to these.
COPY --from=build /app/shared/package.json ./shared/package.json
COPY --from=build /app/shared/dist ./shared/dist
COPY --from=build /app/client/package.json ./client/package.json
COPY --from=build /app/client/dist ./client/dist
# Migrations are read at run time (the app finds its root as the folder holding package.json and sql/).
COPY --from=build /app/sql ./sql
# The web console the API serves at `/`.
COPY --from=build /app/console/dist ./console/dist
RUN mkdir -p /data/blobs && chown node:node /data/blobs
USER node
EXPOSE 8080
CMD ["node", "dist/src/main.js"]
