# The web service: the shell and the forum, messaging and settings remotes as static files on nginx, which
# proxies the app page, /api, /ws and /remotes.json to the api replicas (deploy/nginx/web.conf.template):
# the api paints the app page, from its own copy of the shell's index.html (deploy/Dockerfile). The admin
# remote has an image and an origin of its own (deploy/admin.Dockerfile). Build context: the repository root.
FROM node:20-bookworm-slim AS build
WORKDIR /app
COPY . .
# npm 10 (this image's) ignores allowScripts: no install script runs but the approved ones. nginx here
# has no brotli module: the .br copies go, the .gz ones stay (gzip_static).
RUN npm ci --ignore-scripts --no-audit --no-fund \
 && node scripts/approved-install-scripts.mjs \
 && NX_DAEMON=false npx nx run-many -t build --projects='@termpaste/shell,@termpaste/forum,@termpaste/messaging,@termpaste/settings' --output-style=static \
 && find frontends -path '*/dist/*' -name '*.br' -delete

FROM nginx:1.28-alpine
# The template's placeholders, filled in by the image's entrypoint (envsubst) at start; only these.
ENV API_UPSTREAM=api:3000 \
    WEB_LISTEN=80 \
    WEB_ROOT=/usr/share/nginx/html \
    WEB_CACHE_PATH=/var/cache/nginx/termpaste \
    NGINX_ENVSUBST_FILTER='^(API_UPSTREAM|WEB_LISTEN|WEB_ROOT|WEB_CACHE_PATH)$'
RUN rm -f /etc/nginx/conf.d/default.conf
COPY deploy/nginx/web.conf.template /etc/nginx/templates/default.conf.template
COPY --from=build /app/frontends/shell/dist /usr/share/nginx/html
COPY --from=build /app/frontends/forum/dist /usr/share/nginx/html/remotes/forum
COPY --from=build /app/frontends/messaging/dist /usr/share/nginx/html/remotes/messaging
COPY --from=build /app/frontends/settings/dist /usr/share/nginx/html/remotes/settings
EXPOSE 80
