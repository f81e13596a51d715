#!/bin/sh
# Unpack Debian's muparser (library and headers) into .deps/muparser, for a machine that cannot
# install libmuparser-dev itself (the GPU machine has no network): run this where apt works, then
# carry .deps to the other machine; the makefile finds .deps/muparser by itself.
# The Debian 12 build needs glibc >= 2.34, libstdc++ >= 12 and libgomp (Ubuntu 24.04 has them).
set -e
cd "$(dirname "$0")/.."
dest=.deps/muparser
tmp=$(mktemp -d)
(cd "$tmp" && apt-get download libmuparser2v5 libmuparser-dev >/dev/null 2>&1)
rm -rf "$dest"
mkdir -p "$dest/include" "$dest/lib"
for deb in "$tmp"/*.deb; do dpkg-deb -x "$deb" "$tmp/root"; done
cp "$tmp"/root/usr/include/muParser*.h "$dest/include/"
for f in libmuparser.so libmuparser.so.2; do cp -L "$tmp"/root/usr/lib/*/libmuparser.so.2.* "$dest/lib/$f"; done
rm -rf "$tmp"
echo "muparser unpacked into $dest"
