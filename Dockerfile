# syntax=docker/dockerfile:1
# Build stage: the official Swift image of the version choreo is developed with (6.3, Debian
# bookworm), with the C libraries' headers.
FROM swift:6.3-bookworm AS build
RUN apt-get update \
    && apt-get install -y --no-install-recommends libmicrohttpd-dev libsqlite3-dev libpq-dev libcurl4-openssl-dev libssl-dev \
       libcairo2-dev libpango1.0-dev zlib1g-dev libclang-dev libwebp-dev libvpx-dev pkg-config \
    && rm -rf /var/lib/apt/lists/*
WORKDIR /src
COPY Package.swift ./
COPY Sources ./Sources
COPY Tests ./Tests
COPY Benchmarks ./Benchmarks
RUN swift build -c release --product choreo --static-swift-stdlib \
    && install -D .build/release/choreo /out/choreo \
    && swift build -c release --product choreo-import --scratch-path .build/import-helper \
    && install -D .build/import-helper/release/choreo-import /out/choreo-import

# Runtime stage: only the runtime libraries, a non-root user, the data directory as a volume.
FROM debian:bookworm-slim
RUN apt-get update \
    && apt-get install -y --no-install-recommends libmicrohttpd12 libsqlite3-0 libpq5 libcurl4 libssl3 \
       libcairo2 libpango-1.0-0 libpangocairo-1.0-0 zlib1g libclang1-14 libwebp7 libwebpmux3 libvpx7 fonts-dejavu-core fonts-noto-cjk fonts-noto-color-emoji curl ca-certificates \
    && rm -rf /var/lib/apt/lists/* \
    && useradd --system --uid 10001 --home-dir /data choreo \
    && mkdir -p /data && chown choreo /data
COPY --from=build /out/choreo /out/choreo-import /usr/local/bin/
# The import helper's runtime: the toolchain's shared Swift libraries and its SwiftSyntax, at the
# paths the helper was linked against (choreo itself is static and needs neither).
COPY --from=build /usr/lib/swift/linux/*.so /usr/lib/swift/linux/
COPY --from=build /usr/lib/swift/host/libSwift*.so /usr/lib/swift/host/
USER 10001
VOLUME ["/data"]
EXPOSE 8080
HEALTHCHECK --interval=30s --timeout=3s --start-period=5s CMD ["curl", "-fsS", "http://127.0.0.1:8080/healthz"]
ENTRYPOINT ["choreo"]
CMD ["serve", "--host", "0.0.0.0", "--port", "8080", "--data", "/data"]
