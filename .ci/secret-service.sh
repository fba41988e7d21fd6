#!/bin/sh
# A real, unlocked gnome-keyring Secret Service for the tests on a headless machine:
# the daemon runs in the foreground of this script, so it is stopped when the command ends and holds no pipe of
# the caller's open, and its keyring files live in a directory of their own (a login keyring left in
# ~/.local/share/keyrings by another run, with another password, would stay locked).
# Needs: apt-get install -y dbus gnome-keyring libsecret-tools libglib2.0-bin
# Use:   dbus-run-session -- sh .ci/secret-service.sh <command that runs the tests>
set -e
keyring_home=$(mktemp -d /tmp/coffer-keyring.XXXXXX)
mkdir -m 700 "$keyring_home/data" "$keyring_home/run"
printf '%s' "${KEYRING_PW:-ci-password}" \
    | XDG_DATA_HOME="$keyring_home/data" XDG_RUNTIME_DIR="$keyring_home/run" \
        gnome-keyring-daemon --foreground --unlock --components=secrets >/dev/null 2>&1 &
keyring_pid=$!
# wait until the daemon owns the bus name (avoids racing D-Bus activation)
gdbus wait --session --timeout 10 org.freedesktop.secrets
status=0
"$@" || status=$?
kill "$keyring_pid" 2>/dev/null || true
wait "$keyring_pid" 2>/dev/null || true
rm -rf "$keyring_home"
exit "$status"
