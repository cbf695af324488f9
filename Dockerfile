# syntax=docker/dockerfile:1
# DealerPass as a container (docs/decisions/022): one image, any number of identical instances
# behind a load balancer (compose.yaml, deploy/haproxy.cfg). Node 24 runs the server's
# TypeScript directly, as `npm start` does; the web app is built in the first stage.

FROM node:24-bookworm-slim AS build
WORKDIR /app
# Manifests first, so the dependency layer is reused while only sources change.
COPY package.json package-lock.json ./
COPY packages/domain/package.json packages/domain/
COPY apps/server/package.json apps/server/
COPY apps/web/package.json apps/web/
COPY e2e/package.json e2e/
RUN npm ci --no-audit --no-fund
COPY tsconfig.base.json ./
COPY packages/domain packages/domain
COPY apps/web apps/web
RUN npm run build -w @dealerpass/web

FROM node:24-bookworm-slim AS runtime
ENV NODE_ENV=production \
    APP_ENV=production \
    HOST=0.0.0.0 \
    PORT=3000 \
    DATA_DIR=/app/data
WORKDIR /app
COPY package.json package-lock.json ./
COPY packages/domain/package.json packages/domain/
COPY apps/server/package.json apps/server/
COPY apps/web/package.json apps/web/
COPY e2e/package.json e2e/
# Production dependencies of the server and the domain rules only: no build tools, no browser.
RUN npm ci --omit=dev --no-audit --no-fund \
      --workspace @dealerpass/server --workspace @dealerpass/domain \
    && npm cache clean --force
COPY packages/domain/src packages/domain/src
COPY apps/server/src apps/server/src
COPY apps/server/drizzle apps/server/drizzle
COPY apps/server/scripts apps/server/scripts
COPY --from=build /app/apps/web/dist apps/web/dist
RUN mkdir -p /app/data && chown node:node /app/data
USER node
EXPOSE 3000
# The process answers (no database work): an orchestrator restarts a hung instance. The load
# balancer checks /api/health/ready itself.
HEALTHCHECK --interval=10s --timeout=3s --start-period=30s --retries=3 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:'+(process.env.PORT||3000)+'/api/health/live').then(r=>process.exit(r.ok?0:1),()=>process.exit(1))"]
CMD ["node", "apps/server/src/main.ts"]
