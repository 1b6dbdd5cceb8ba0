#!/usr/bin/env bash
# Packs a staged prefix tree into a release tarball: scripts/tarball.sh STAGE DIR OUT.tar.gz
# archives STAGE/DIR (bin/rigcheck, share/man/man1/..., share/doc/rigcheck/...) as DIR/...
#
# The archive holds files, not the directories above them. People unpack it over a prefix
# they share with everything else (`tar -xzf ... --strip-components=1 -C /usr/local`, or
# ~/.local); a directory entry for bin/, share/ or share/man/ would make tar reset that
# directory's mode and owner to the archive's (2775 root:staff /usr/local/bin becoming 755
# root:root, a user's 0700 ~/.local/share opened to 755). With only file entries tar makes a
# directory that is missing and leaves one that is there as it is. The one directory of
# rigcheck's own, share/doc/rigcheck/, is listed, so it is made with its mode.
#
# Reproducible: entries in byte order, the time SOURCE_DATE_EPOCH (required), owner and group
# 0, modes as staged (dist.sh stages 755 for bin/rigcheck, 644 for the rest), gzip -n.
set -euo pipefail
[ $# -eq 3 ] || { echo "usage: $0 STAGE DIR OUT.tar.gz" >&2; exit 2; }
stage=$1 dir=$2 out=$3
: "${SOURCE_DATE_EPOCH:?set SOURCE_DATE_EPOCH to the commit time}"
[ -d "$stage/$dir" ] || { echo "$0: $stage/$dir is not a directory" >&2; exit 2; }
list=$(mktemp)
trap 'rm -f "$list"' EXIT
{
  (cd "$stage" && find "$dir" -type f)
  [ -d "$stage/$dir/share/doc/rigcheck" ] && echo "$dir/share/doc/rigcheck"
} | LC_ALL=C sort >"$list"
tar --no-recursion --format=gnu --mtime="@$SOURCE_DATE_EPOCH" --owner=0 --group=0 \
  --numeric-owner -C "$stage" -T "$list" -cf - | gzip -9n >"$out"
