# syntax=docker/dockerfile:1
# Quire's server image: built from this repository, run as a non-root user, data in /var/lib/quire
# (SQLite) unless DATABASE_URL names a PostgreSQL database.

FROM node:24-bookworm-slim AS build
# better-sqlite3 builds from source when no prebuilt binary matches.
RUN apt-get update && apt-get install -y --no-install-recommends python3 make g++ && rm -rf /var/lib/apt/lists/*
WORKDIR /src
COPY package.json package-lock.json ./
COPY spec/package.json spec/
COPY packages/api-types/package.json packages/api-types/
COPY packages/client/package.json packages/client/
COPY packages/app/package.json packages/app/
COPY packages/server/package.json packages/server/
COPY packages/spec-tools/package.json packages/spec-tools/
RUN npm ci --no-audit --no-fund
COPY . .
RUN npx turbo run build --filter=@quire/server... && npm prune --omit=dev --no-audit --no-fund

FROM node:24-bookworm-slim
ENV NODE_ENV=production PORT=8080 QUIRE_DATA_DIR=/var/lib/quire
# Git Sync runs Debian's git (its HTTPS transport needs the CA certificates).
RUN apt-get update && apt-get install -y --no-install-recommends git ca-certificates && rm -rf /var/lib/apt/lists/*
WORKDIR /app
# The server needs its build, its dependencies and the contract it serves; workspace packages are
# linked from node_modules, so they keep their places.
COPY --from=build /src/package.json ./
COPY --from=build /src/node_modules node_modules
COPY --from=build /src/spec/package.json spec/
COPY --from=build /src/spec/openapi spec/openapi
COPY --from=build /src/packages/api-types/package.json packages/api-types/
COPY --from=build /src/packages/api-types/dist packages/api-types/dist
COPY --from=build /src/packages/app/package.json packages/app/
COPY --from=build /src/packages/app/dist packages/app/dist
COPY --from=build /src/packages/server/package.json packages/server/
COPY --from=build /src/packages/server/dist packages/server/dist
RUN mkdir -p /var/lib/quire && chown node:node /var/lib/quire
USER node
VOLUME /var/lib/quire
EXPOSE 8080
HEALTHCHECK --interval=15s --timeout=3s --start-period=20s \
  CMD node -e "fetch('http://127.0.0.1:' + process.env.PORT + '/health').then((r) => process.exit(r.ok ? 0 : 1), () => process.exit(1))"
CMD ["node", "packages/server/dist/main.js"]
