# HAProxy from Debian's package, with choreo's configuration (docs/scale-out.md). It starts as
# root and drops to the haproxy user the package makes (haproxy.cfg: user, group).
FROM debian:bookworm-slim
RUN apt-get update \
    && apt-get install -y --no-install-recommends haproxy \
    && rm -rf /var/lib/apt/lists/*
COPY haproxy.cfg /etc/haproxy/haproxy.cfg
EXPOSE 8080
ENTRYPOINT ["haproxy", "-db", "-f", "/etc/haproxy/haproxy.cfg"]
