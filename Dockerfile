# syntax=docker/dockerfile:1
# The appset-mapper image, built with a Docker daemon (docker build -t appset-mapper .).
# Without one, Jib builds the same image from Maven: mvn package jib:build (see docs/deploy.md).

FROM maven:3.9-eclipse-temurin-17 AS build
WORKDIR /src
COPY pom.xml .
# Dependencies first: this layer is cached until pom.xml changes.
RUN mvn -B -q dependency:go-offline
COPY src src
RUN mvn -B -q package -DskipTests

FROM eclipse-temurin:17-jre
LABEL org.opencontainers.image.title="appset-mapper" \
      org.opencontainers.image.description="Declarative Argo CD ApplicationSet plugin generator"
COPY --from=build /src/target/appset-mapper.jar /app/appset-mapper.jar
COPY src/main/jib/etc/appset-mapper/mappings/README.md /etc/appset-mapper/mappings/README.md
# A numeric, non-root user (the chart's securityContext runs as 65532 too); no shell needed.
USER 65532:65532
WORKDIR /app
EXPOSE 4355
# Heap from the container's memory limit; the small-heap collector (docs/performance.md); exit
# (and be restarted) rather than limp on OOM.
ENTRYPOINT ["java", "-XX:MaxRAMPercentage=75", "-XX:+UseSerialGC", "-XX:+ExitOnOutOfMemoryError", "-jar", "/app/appset-mapper.jar"]
CMD ["serve", "--mappings", "/etc/appset-mapper/mappings"]
