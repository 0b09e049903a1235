# syntax=docker/dockerfile:1
# The appset-mapper image, built with a Docker daemon (docker build -t appset-mapper .).
# Without one, scripts/image-build makes the same image with Jib (docs/operations.md); keep the
# two equal (scripts/image-check compares the entry point, user, port and jlink modules).

# The jar: compiled for Java 17 (--release 17) whatever JDK builds it.
FROM maven:3.9-eclipse-temurin-25 AS build
WORKDIR /src
COPY pom.xml .
# Dependencies first: this layer is cached until pom.xml changes.
RUN mvn -B -q dependency:go-offline
COPY src src
COPY schema schema
RUN mvn -B -q package -DskipTests

# The runtime, jlink'd from Temurin 25 (no jmods: jlink links from the JDK's own runtime image),
# and the AOT cache from a training run of `serve` on the sample mapping, with the jar at the path
# it has in the final image: the cache is only used for the very same jar (path, size, mtime), and
# COPY --from keeps all three.
FROM eclipse-temurin:25-jdk AS runtime
RUN jlink --add-modules java.base,java.compiler,java.desktop,java.naming,java.net.http,java.security.jgss,java.security.sasl,java.sql,jdk.jfr,jdk.management,jdk.net,jdk.unsupported,jdk.crypto.ec,jdk.charsets \
      --strip-debug --no-header-files --no-man-pages \
      --exclude-files='**/libawt_xawt.so,**/libsplashscreen.so,**/libjsound.so' --output /opt/java
COPY --from=build /src/target/appset-mapper.jar /app/appset-mapper.jar
COPY scripts/ImageTraining.java /train/ImageTraining.java
COPY samples/pr-digests /train/pr-digests
RUN APPSET_MAPPER_TOKEN=demo-token java /train/ImageTraining.java 4355 /app/appset-mapper.aot \
      /opt/java/bin/java -XX:MaxRAMPercentage=50 -XX:+UseSerialGC -XX:+ExitOnOutOfMemoryError \
      -XX:AOTCacheOutput=/app/appset-mapper.aot --sun-misc-unsafe-memory-access=allow \
      -Xlog:disable -Xlog:all=warning:stderr -jar /app/appset-mapper.jar \
      serve --mappings /train/pr-digests --replay /train/pr-digests/pr-digests.test.yaml \
      --host 127.0.0.1 --port 4355 >/dev/null

# glibc, CA certificates, passwd with nonroot (65532), /tmp; no shell, no package manager.
FROM gcr.io/distroless/base-nossl-debian12:nonroot
LABEL org.opencontainers.image.title="appset-mapper" \
      org.opencontainers.image.description="Declarative Argo CD ApplicationSet plugin generator"
COPY --from=runtime /opt/java /opt/java
COPY --from=runtime /app /app
COPY src/main/jib/etc/appset-mapper/mappings/README.md /etc/appset-mapper/mappings/README.md
ENV JAVA_HOME=/opt/java PATH=/opt/java/bin:/usr/local/bin:/usr/bin:/bin
# A numeric, non-root user (the chart's securityContext runs as 65532 too); no shell needed.
USER 65532:65532
WORKDIR /app
EXPOSE 4355
# Heap from the container's memory limit; the small-heap collector (docs/performance.md); exit
# (and be restarted) rather than limp on OOM; the AOT cache (a broken or missing one only costs
# start time); JVM warnings to stderr, never between the log lines on stdout.
ENTRYPOINT ["/opt/java/bin/java", "-XX:MaxRAMPercentage=50", "-XX:+UseSerialGC", "-XX:+ExitOnOutOfMemoryError", "-XX:AOTCache=/app/appset-mapper.aot", "--sun-misc-unsafe-memory-access=allow", "-Xlog:disable", "-Xlog:all=warning:stderr", "-jar", "/app/appset-mapper.jar"]
CMD ["serve", "--mappings", "/etc/appset-mapper/mappings"]
