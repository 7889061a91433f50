# syntax=docker/dockerfile:1
# Build stage: compile TypeScript with the dev toolchain, then keep production dependencies only.
FROM node:22-bookworm-slim AS build
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm ci --no-audit --no-fund
COPY tsconfig.json tsconfig.build.json ./
COPY operations ./operations
COPY reference ./reference
COPY data/ranker/lexicon.json data/ranker/model.json ./data/ranker/
COPY src ./src
COPY bench ./bench
RUN npm run build && npm prune --omit=dev

# Runtime stage: no compiler, no dev dependencies, not root. The embedded PostgreSQL runs as this
# user too, with its cluster and credentials in the /data volume; set DATABASE_URL to use your own
# server instead. Built and run in CI by scripts/container-smoke.sh.
FROM node:22-bookworm-slim
ENV NODE_ENV=production \
    HOST=0.0.0.0 \
    PORT=3000 \
    DATA_DIR=/data
WORKDIR /app
RUN groupadd --system --gid 10001 app \
 && useradd --system --uid 10001 --gid app --home-dir /app --shell /usr/sbin/nologin app \
 && mkdir -p /data && chown app:app /data
COPY --from=build --chown=app:app /app/node_modules ./node_modules
COPY --from=build --chown=app:app /app/dist ./dist
COPY --chown=app:app package.json llms.txt ./
# Migrations are read as SQL files at start, the dashboard's stylesheet and scripts as they are (search_endpoints' lexicon
# and model are in dist/, copied there by the build).
COPY --chown=app:app src/store/migrations ./src/store/migrations
COPY --chown=app:app src/dashboard/assets ./src/dashboard/assets
USER app
VOLUME ["/data"]
EXPOSE 3000
HEALTHCHECK --interval=15s --timeout=3s --start-period=120s --retries=3 \
  CMD node -e "fetch('http://127.0.0.1:'+(process.env.PORT||3000)+'/healthz').then(r=>process.exit(r.ok?0:1),()=>process.exit(1))"
CMD ["node", "dist/src/main.js"]
