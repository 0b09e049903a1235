# Sourced by scripts/image-build and scripts/image-check: rootful podman on this kind of host
# (runc: crun refuses its cgroup setup; cgroupfs; file events; ulimits the host allows), in its own
# storage so that no other podman user is touched. Sets $pod and $podman_cmd; podman_cleanup
# removes every container, image and file it made.
pod=$(mktemp -d /var/tmp/appset-mapper-podman.XXXXXX)
podman_cmd="podman --root $pod/root --runroot $pod/run --storage-driver overlay"
cat >"$pod/containers.conf" <<'CONF'
[containers]
default_ulimits = ["nofile=20000:20000", "nproc=32768:32768"]

[engine]
runtime = "runc"
cgroup_manager = "cgroupfs"
events_logger = "file"
CONF
export CONTAINERS_CONF=$pod/containers.conf
podman_cleanup() {
  $podman_cmd rm -af >/dev/null 2>&1 || true
  $podman_cmd rmi -af >/dev/null 2>&1 || true
  # The overlay driver may keep its home mounted: unmount, never delete across a mount point.
  awk -v root="$pod/" 'index($2, root) == 1 {print $2}' /proc/mounts | sort -r |
    while read -r m; do umount -l "$m" || true; done
  rm -rf --one-file-system "$pod"
}
