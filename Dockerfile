# a11y-gate: the API (and the GitHub App when its variables are set), compiled JavaScript, non-root.
# Build: docker build -t a11y-gate .   Run: see compose.yaml and docs/deploy.md.

FROM node:20-bookworm-slim AS build
WORKDIR /src
# sqlite3 builds its native module when no prebuilt binary fits.
RUN apt-get update && apt-get install -y --no-install-recommends python3 make g++ && rm -rf /var/lib/apt/lists/*
COPY package.json package-lock.json ./
# --ignore-scripts: the package's `prepare` script compiles the sources, which are not copied yet; the one
# native module the server needs is built on its own.
RUN npm ci --ignore-scripts && npm rebuild sqlite3
COPY . .
RUN npm run build && npm prune --omit=dev

FROM node:20-bookworm-slim
ENV NODE_ENV=production DATA_DIR=/data PORT=3000
WORKDIR /app
COPY --from=build /src/package.json ./
COPY --from=build /src/node_modules ./node_modules
COPY --from=build /src/build ./build
RUN mkdir -p /data && chown node:node /data
USER node
VOLUME ["/data"]
EXPOSE 3000
# Liveness: the process answers. Readiness (database, migrations) is GET /readyz, for the proxy.
HEALTHCHECK --interval=15s --timeout=3s --start-period=20s --retries=3 \
  CMD node -e "fetch('http://127.0.0.1:'+(process.env.PORT||3000)+'/healthz').then(r=>process.exit(r.ok?0:1),()=>process.exit(1))"
# node is PID 1 and receives SIGTERM itself: the server stops accepting, drains in-flight requests and
# the webhook worker within SHUTDOWN_TIMEOUT_MS, then closes the database.
STOPSIGNAL SIGTERM
CMD ["node", "build/server/main.js"]
