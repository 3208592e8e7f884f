# syntax=docker/dockerfile:1
# avaxmon container image: a multi-stage build on Node 24 that ships production dependencies only.
#   docker build -t avaxmon --build-arg VERSION=0.1.0 --build-arg REVISION=$(git rev-parse HEAD) .
#   docker run -v ./config.yaml:/etc/avaxmon/config.yaml:ro -v avaxmon-state:/var/lib/avaxmon -p 9683:9683 avaxmon

FROM node:24-bookworm-slim AS build
WORKDIR /src
COPY package.json package-lock.json ./
# --ignore-scripts: the sources are not copied yet, so `prepare` cannot build here.
RUN npm ci --ignore-scripts --no-audit --no-fund
COPY tsconfig.json tsconfig.build.json ./
# `npm run build` ends with this script (it records the git commit when there is one; here the
# REVISION build argument does).
COPY scripts/write-revision.mjs ./scripts/
COPY src ./src
RUN npm run -s build

FROM node:24-bookworm-slim AS runtime
ENV NODE_ENV=production
WORKDIR /app
COPY package.json package-lock.json ./
# --ignore-scripts: no install script of a dependency runs in the image we ship.
RUN npm ci --omit=dev --ignore-scripts --no-audit --no-fund && npm cache clean --force
COPY --from=build /src/dist ./dist
COPY scenarios ./scenarios
# The config is mounted at /etc/avaxmon/config.yaml (read-only is fine). The node image's
# unprivileged "node" user (uid 1000) owns only the state directory. The default alerts.state_dir,
# ./data, resolves through a link to that volume, so alert state survives a new container.
RUN mkdir -p /etc/avaxmon /var/lib/avaxmon && chown node:node /var/lib/avaxmon && ln -s /var/lib/avaxmon /app/data
USER node
VOLUME ["/var/lib/avaxmon"]
EXPOSE 9683
# The release version and git commit, into avaxmon_build_info and the OCI labels. Last, so a new
# commit does not invalidate the cached dependency layers above.
ARG VERSION=""
ARG REVISION=unknown
ENV AVAXMON_VERSION=${VERSION} AVAXMON_REVISION=${REVISION}
LABEL org.opencontainers.image.title="avaxmon" \
      org.opencontainers.image.description="Monitoring daemon for AvalancheGo nodes and validators: Prometheus metrics and alerts" \
      org.opencontainers.image.source="https://github.com/avaxmon/avaxmon" \
      org.opencontainers.image.url="https://github.com/avaxmon/avaxmon" \
      org.opencontainers.image.documentation="https://github.com/avaxmon/avaxmon/blob/main/docs/deploy-docker.md" \
      org.opencontainers.image.licenses="Apache-2.0" \
      org.opencontainers.image.version="${VERSION}" \
      org.opencontainers.image.revision="${REVISION}"
# GET /-/healthy (the slim image has no curl), following the daemon's own --web.listen-address and
# --web.config.file (TLS, client certificates, basic auth): it reads them from PID 1's command line.
HEALTHCHECK --interval=30s --timeout=5s --start-period=10s --retries=3 \
  CMD ["node", "dist/main.js", "healthcheck"]
# Exec form: node runs as PID 1 and receives SIGTERM itself; avaxmon drains and exits 0 on it.
STOPSIGNAL SIGTERM
# The daemon applies its own process settings (src/process-settings.ts), as every launcher runs it.
ENTRYPOINT ["node", "dist/main.js"]
CMD ["--config.file=/etc/avaxmon/config.yaml"]
