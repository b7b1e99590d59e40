# Static frontends (shell and remotes) on nginx. Build context: the repository root.
FROM node:20-bookworm-slim AS build
WORKDIR /app
COPY . .
RUN npm ci --no-audit --no-fund && NX_DAEMON=false npx nx run-many -t build --projects='@termpaste/shell,@termpaste/forum,@termpaste/messaging,@termpaste/settings,@termpaste/admin' --output-style=static

FROM nginx:1.27-alpine
COPY deploy/nginx.conf /etc/nginx/conf.d/default.conf
COPY --from=build /app/frontends/shell/dist /usr/share/nginx/html
COPY --from=build /app/frontends/forum/dist /usr/share/nginx/html/remotes/forum
COPY --from=build /app/frontends/messaging/dist /usr/share/nginx/html/remotes/messaging
COPY --from=build /app/frontends/settings/dist /usr/share/nginx/html/remotes/settings
COPY --from=build /app/frontends/admin/dist /usr/share/nginx/html/remotes/admin
