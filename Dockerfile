# syntax=docker/dockerfile:1
# Node.js 24 (the current LTS; Node 20 reached its end of life on 2026-04-30). See README "Runtime and supported versions".
# Build stage: install everything, compile with the Nest CLI (swagger plugin included).
FROM node:24-bookworm-slim AS build
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm ci --no-audit --no-fund
COPY tsconfig.json tsconfig.build.json nest-cli.json ormconfig.ts ./
COPY src ./src
COPY bin ./bin
RUN npx nest build && npm prune --omit=dev

# Runtime stage: production dependencies and the compiled app only, as a non-root user.
FROM node:24-bookworm-slim AS runtime
ENV NODE_ENV=production HOST=0.0.0.0 PORT=3000 DATA_DIR=/data
WORKDIR /app
COPY --from=build /app/package.json ./
COPY --from=build /app/node_modules ./node_modules
COPY --from=build /app/dist ./dist
COPY --from=build /app/bin ./bin
RUN mkdir -p /data && chown -R node:node /data
USER node
EXPOSE 3000
HEALTHCHECK --interval=15s --timeout=3s CMD node -e "fetch('http://127.0.0.1:'+(process.env.PORT||3000)+'/health').then(r=>process.exit(r.ok?0:1)).catch(()=>process.exit(1))"
# Set DATABASE_URL, APP_SECRET and SMTP_URL (NODE_ENV=production refuses to start without a mail transport);
# without DATABASE_URL an embedded PostgreSQL runs under /data. The reference storefront (STOREFRONT_DEMO) is not in
# this image: it is a development demo.
# The preload starts OpenTelemetry only when OTEL_EXPORTER_OTLP_ENDPOINT is set (README "Operating it").
# SIGTERM (docker stop) drains requests for up to SHUTDOWN_GRACE_MS (10 s): give docker stop a longer --time.
STOPSIGNAL SIGTERM
CMD ["node", "--import", "./dist/src/observability/tracing-preload.js", "dist/src/main.js"]
