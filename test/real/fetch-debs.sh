#!/usr/bin/env bash
# Fetches NVIDIA's real Debian 12 (bookworm) non-free packages for the real-binaries lane, with a
# PRIVATE apt configuration (sources list, lists, cache in $CACHE/apt): the machine's apt setup and
# state are never read for writing nor changed. The mirror host is the one the machine already uses.
# Usage: fetch-debs.sh CACHE_DIR PACKAGE...   → CACHE_DIR/debs/*.deb (kept between runs)
set -euo pipefail
cache="$1"; shift
mkdir -p "$cache/debs" "$cache/apt/lists/partial" "$cache/apt/archives/partial" "$cache/apt/etc"
need=()
for p in "$@"; do
  ls "$cache/debs/${p}_"*.deb >/dev/null 2>&1 || need+=("$p")
done
[ ${#need[@]} -eq 0 ] && exit 0
# The machine's Debian mirror (deb822 or one-line form), else deb.debian.org.
mirror=$(cat /etc/apt/sources.list /etc/apt/sources.list.d/*.sources /etc/apt/sources.list.d/*.list 2>/dev/null | grep -v '^[[:space:]]*#' | grep -oE 'https?://[^ ]+/debian/?' | head -n1 || true)
mirror=${mirror:-http://deb.debian.org/debian}
printf 'deb [signed-by=/usr/share/keyrings/debian-archive-keyring.gpg] %s bookworm main contrib non-free non-free-firmware\ndeb [signed-by=/usr/share/keyrings/debian-archive-keyring.gpg] %s bookworm-updates main contrib non-free non-free-firmware\n' "$mirror" "$mirror" >"$cache/apt/etc/sources.list"
opts=(-o "Dir::Etc::SourceList=$cache/apt/etc/sources.list" -o Dir::Etc::SourceParts=/dev/null
      -o "Dir::State::Lists=$cache/apt/lists" -o "Dir::Cache=$cache/apt/cache" -o "Dir::State::status=/var/lib/dpkg/status"
      -o APT::Architecture=amd64 -o Debug::NoLocking=1 -o APT::Sandbox::User=root)
mkdir -p "$cache/apt/cache/archives/partial"
apt-get "${opts[@]}" -qq update
cd "$cache/debs"
apt-get "${opts[@]}" -qq download "${need[@]}"
