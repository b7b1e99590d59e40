# The admin remote alone, on nginx, for an origin of its own (deploy/nginx/admin.conf). Build context:
# the repository root. SHELL_ORIGIN is the shell's origin (PUBLIC_URL's), allowed by CORS.
FROM node:20-bookworm-slim AS build
WORKDIR /app
COPY . .
# npm 10 (this image's) ignores allowScripts: no install script runs but the approved ones. nginx here
# has no brotli module: the .br copies go, the .gz ones stay (gzip_static).
RUN npm ci --ignore-scripts --no-audit --no-fund \
 && node scripts/approved-install-scripts.mjs \
 && NX_DAEMON=false npx nx run @termpaste/admin:build --output-style=static \
 && find frontends -path '*/dist/*' -name '*.br' -delete

FROM nginx:1.28-alpine
ENV SHELL_ORIGIN=http://localhost:8080 \
    WEB_LISTEN=80 \
    WEB_ROOT=/usr/share/nginx/html \
    NGINX_ENVSUBST_FILTER='^(SHELL_ORIGIN|WEB_LISTEN|WEB_ROOT)$'
RUN rm -f /etc/nginx/conf.d/default.conf
COPY deploy/nginx/admin.conf /etc/nginx/templates/default.conf.template
COPY --from=build /app/frontends/admin/dist /usr/share/nginx/html
EXPOSE 80
