#!/usr/bin/env bash
# The release artefacts, for people who install rigcheck without Rust, into target/dist/ with
# a SHA256SUMS file:
#   rigcheck_<version>_amd64.deb             Debian, Ubuntu (cargo-deb)
#   rigcheck-<version>-1.x86_64.rpm          RHEL, Rocky, Fedora (rpmbuild, packaging/rigcheck.spec)
#   rigcheck-<version>-x86_64-linux.tar.gz   any x86_64 Linux with glibc 2.28 or newer
#   rigcheck-<version>-aarch64-linux.tar.gz  the same for 64-bit Arm (Grace, Jetson, Ampere)
#   rigcheck-<version>-x86_64-windows.zip    Windows 10 and newer (mingw-w64)
# The .deb carries CHANGELOG.md's section of its version as changelog.Debian.gz.
# Each carries the JSON Schemas of docs/schema/ (in the .deb and .rpm under
# /usr/share/doc/rigcheck/schema/), and docs/ beside the README (doc/rigcheck/docs/), so the
# README's links to docs/*.md resolve where it is installed.
# The Linux binary is linked by zig against glibc 2.28 (RHEL 8, Ubuntu 20.04 and newer) and
# stays dynamically linked: NVML and CUDA are loaded with dlopen, which a static binary
# cannot do. The .deb, the .rpm and the x86_64 tarball carry that one binary.
#
# What is built is the commit, not the working tree: HEAD is exported (git archive) and built
# there, with RIGCHECK_COMMIT naming it for `--version`. Building the same commit again gives
# the same bytes: timestamps come from SOURCE_DATE_EPOCH (the commit's time), paths of the
# build are remapped, and archives list their files in order with fixed owners and modes.
#
# Installs what it needs: rustup targets, pinned cargo-deb and cargo-zigbuild (cargo install
# --locked), zig from PyPI (ziglang), and Debian's mingw-w64 and rpm (rpmbuild). DIST_OUT and DIST_WORK move the output (target/dist) and the build
# (target/dist-build); a clean DIST_WORK builds every dependency afresh.
set -euo pipefail
cd "$(dirname "$0")/.."
repo=$PWD
export CARGO_TERM_COLOR=never LC_ALL=C TZ=UTC
start=$SECONDS
step() { echo "== $* (at $((SECONDS - start)) s)"; }

# The tools, pinned: a new release of any of them may change the bytes of an artefact.
CARGO_DEB_VERSION=3.8.0
CARGO_ZIGBUILD_VERSION=0.24.1
ZIG_VERSION=0.15.2
# The oldest glibc the Linux binaries run on: RHEL 8's.
GLIBC=2.28

out=$(realpath -m "${DIST_OUT:-target/dist}")
work=$(realpath -m "${DIST_WORK:-target/dist-build}")
src=$work/src
export CARGO_TARGET_DIR=$work/target

step "tools"
rustup target add x86_64-unknown-linux-gnu aarch64-unknown-linux-gnu x86_64-pc-windows-gnu
need_apt=()
command -v x86_64-w64-mingw32-gcc >/dev/null || need_apt+=(mingw-w64)
# dpkg-parsechangelog checks the Debian changelog written from CHANGELOG.md.
command -v dpkg-parsechangelog >/dev/null || need_apt+=(dpkg-dev)
command -v rpmbuild >/dev/null || need_apt+=(rpm)
if [ ${#need_apt[@]} -gt 0 ]; then
  # apt-get needs root: CI runs as root, a developer's machine through sudo.
  as_root=()
  [ "$(id -u)" -eq 0 ] || as_root=(sudo)
  "${as_root[@]}" env DEBIAN_FRONTEND=noninteractive apt-get update -qq
  "${as_root[@]}" env DEBIAN_FRONTEND=noninteractive \
    apt-get install -y -qq --no-install-recommends "${need_apt[@]}" >/dev/null
fi
# `cargo install` of a version already there is a no-op; asking the tool first spares the
# registry index update.
cargo_tool() { # crate version
  [ "$("$1" --version 2>/dev/null)" = "$1 $2" ] || cargo install --locked --quiet "$1" --version "$2"
}
cargo_tool cargo-deb "$CARGO_DEB_VERSION"
cargo_tool cargo-zigbuild "$CARGO_ZIGBUILD_VERSION"
# cargo-zigbuild runs `python3 -m ziglang` before any zig on PATH: the pinned one is used.
[ "$(python3 -m ziglang version 2>/dev/null)" = "$ZIG_VERSION" ] ||
  python3 -m pip install --quiet --disable-pip-version-check "ziglang==$ZIG_VERSION"
echo "$(cargo-deb --version), $(rpmbuild --version), $(cargo-zigbuild --version)," \
  "zig $(python3 -m ziglang version), $(rustc --version)"

step "export HEAD"
commit=$(git log -1 --abbrev=7 --format='%h %cs')
export RIGCHECK_COMMIT=$commit
SOURCE_DATE_EPOCH=$(git log -1 --format=%ct)
export SOURCE_DATE_EPOCH
if [ -n "$(git status --porcelain --untracked-files=no)" ]; then
  echo "note: the working tree has changes that are not committed; the artefacts are of HEAD ($commit) without them"
fi
rm -rf "$src"
mkdir -p "$src" "$CARGO_TARGET_DIR"
# What `cargo package` ships (Cargo.toml's exclude): the fixtures, tests and CI stay out.
git archive --format=tar HEAD -- . ':(exclude)fixtures' ':(exclude)tests' ':(exclude)benches' \
  ':(exclude)examples' ':(exclude)fuzz' ':(exclude).ci' | tar -x -C "$src"
# The test doubles are workspace members and path dev-dependencies: cargo loads their manifests
# to resolve the workspace even for a build of the binary alone, so they travel with the source.
git archive --format=tar HEAD -- tests/doubles | tar -x -C "$src"
version=$(python3 -c 'import sys, tomllib; print(tomllib.load(open(sys.argv[1], "rb"))["package"]["version"])' "$src/Cargo.toml")
echo "rigcheck $version ($commit), SOURCE_DATE_EPOCH=$SOURCE_DATE_EPOCH"
# Where this build happened stays out of the binaries (panic messages carry source paths).
cargo_home=$(realpath -m "${CARGO_HOME:-$HOME/.cargo}")
export RUSTFLAGS="--remap-path-prefix=$src=/rigcheck-$version --remap-path-prefix=$cargo_home=/cargo --remap-path-prefix=$CARGO_TARGET_DIR=/target"

cd "$src"
step "build x86_64 Linux (glibc $GLIBC)"
cargo zigbuild --locked --profile dist --target "x86_64-unknown-linux-gnu.$GLIBC"
step "build aarch64 Linux (glibc $GLIBC)"
cargo zigbuild --locked --profile dist --target "aarch64-unknown-linux-gnu.$GLIBC"
step "build x86_64 Windows"
cargo build --locked --profile dist --target x86_64-pc-windows-gnu
linux_x86=$CARGO_TARGET_DIR/x86_64-unknown-linux-gnu/dist/rigcheck
linux_arm=$CARGO_TARGET_DIR/aarch64-unknown-linux-gnu/dist/rigcheck
windows=$CARGO_TARGET_DIR/x86_64-pc-windows-gnu/dist/rigcheck.exe
sha256sum "$linux_x86" "$linux_arm" "$windows" | sed "s|$CARGO_TARGET_DIR/||"
"$linux_x86" --version
"$linux_x86" --version | grep -F "($commit)" >/dev/null || { echo "the binary does not name $commit"; exit 1; }

step "man pages and completions"
# Printed by the binary itself into generated/ of the export, where Cargo.toml's package
# metadata finds them. Each page's SEE ALSO names its commands' pages; following those
# gives every page (rigcheck-profile-new(1) under rigcheck-profile(1)).
gen=$src/generated
mkdir -p "$gen/man" "$gen/completions"
man_page() { # the command path: none for rigcheck(1), `profile new` for rigcheck-profile-new(1)
  local name=rigcheck word ref
  for word in "$@"; do name+="-$word"; done
  "$linux_x86" man "$@" >"$gen/man/$name.1"
  for ref in $(sed -n 's/^\(rigcheck[a-z0-9\\-]*\)(1)$/\1/p' "$gen/man/$name.1" | sed 's/\\-/-/g'); do
    [[ $ref == "$name-"* ]] && man_page "$@" "${ref#"$name-"}"
  done
  return 0
}
man_page
# gzip -n: no name or time in the header. Debian policy wants pages compressed; man reads
# them so everywhere.
gzip -9n "$gen"/man/*.1
ls "$gen/man" | tr '\n' ' '
echo
"$linux_x86" completions bash >"$gen/completions/rigcheck.bash"
"$linux_x86" completions zsh >"$gen/completions/_rigcheck"
"$linux_x86" completions fish >"$gen/completions/rigcheck.fish"

step "Debian changelog"
# CHANGELOG.md's section of this version in Debian's format (generated/changelog), which
# cargo-deb installs gzipped as /usr/share/doc/rigcheck/changelog.Debian.gz. Its date is the
# commit's, so the .deb's bytes stay the same from one build to the next.
python3 - CHANGELOG.md Cargo.toml "$version" "$SOURCE_DATE_EPOCH" >"$gen/changelog" <<'EOF'
import re, sys, textwrap, time, tomllib
changelog, manifest, version, epoch = sys.argv[1:]
text = open(changelog, encoding="utf-8").read()
section = re.search(rf"^## {re.escape(version)}\n(.*?)(?=^## |\Z)", text, re.S | re.M)
if section is None:
    sys.exit(f"{changelog} has no section '## {version}': write what this release changes there")
# Each paragraph or list item becomes one entry (`  * ...`), wrapped at 80 columns.
entries = []
for line in section.group(1).splitlines():
    if not line.strip():
        entries.append(None)
    elif line.startswith("- ") or not entries or entries[-1] is None:
        entries.append(line.removeprefix("- ").strip())
    else:
        entries[-1] += " " + line.strip()
entries = [e for e in entries if e]
if not entries:
    sys.exit(f"{changelog}: the section '## {version}' is empty")
deb = tomllib.load(open(manifest, "rb"))["package"]["metadata"]["deb"]
maintainer = deb["maintainer"]
if "<" not in maintainer:
    maintainer += " <>"  # the format wants an address; Cargo.toml names none
print(f"rigcheck ({version}) unstable; urgency=medium\n")
for e in entries:
    print(textwrap.fill(e, 80, initial_indent="  * ", subsequent_indent="    "))
date = time.strftime("%a, %d %b %Y %H:%M:%S +0000", time.gmtime(int(epoch)))
print(f"\n -- {maintainer}  {date}")
EOF
dpkg-parsechangelog -l "$gen/changelog" --show-field Version | grep -qx "$version" ||
  { echo "generated/changelog does not parse as version $version"; exit 1; }

chmod 644 "$gen"/man/* "$gen"/completions/* "$gen"/changelog README.md LICENSE-MIT LICENSE-APACHE docs/*.md docs/schema/*.schema.json

rm -rf "$out"
mkdir -p "$out"

step "rigcheck_${version}_amd64.deb"
cargo deb --locked --no-build --no-strip --no-dbgsym --profile dist \
  --target x86_64-unknown-linux-gnu --output "$out/rigcheck_${version}_amd64.deb"
dpkg-deb --field "$out/rigcheck_${version}_amd64.deb" Version Depends Suggests

step "rigcheck-$version-1.x86_64.rpm"
# rpmbuild from packaging/rigcheck.spec, with the binary the .deb carries. Requires are rpm's
# own reading of the binary (elfdeps: `libc.so.6(GLIBC_2.28)(64bit)` and the like). The same
# commit gives the same bytes: build time and file times are SOURCE_DATE_EPOCH, the build host
# a fixed name. xz: the payload compression every rpm from RHEL 8 on reads.
rpmtop=$work/rpmbuild
rm -rf "$rpmtop"
rpmbuild -bb --quiet \
  --define "_topdir $rpmtop" \
  --define "_rpmdir $rpmtop/out" \
  --define "_build_name_fmt %%{NAME}-%%{VERSION}-%%{RELEASE}.%%{ARCH}.rpm" \
  --define "_binary_payload w6.xzdio" \
  --define "_buildhost rigcheck-dist" \
  --define "use_source_date_epoch_as_buildtime 1" \
  --define "clamp_mtime_to_source_date_epoch 1" \
  --define "rigcheck_version $version" \
  --define "rigcheck_src $src" \
  --define "rigcheck_binary $linux_x86" \
  "$src/packaging/rigcheck.spec"
mv "$rpmtop/out/rigcheck-$version-1.x86_64.rpm" "$out/"

# A tree laid out as a prefix: unpacked with --strip-components=1 into ~/.local or
# /usr/local, each file lands where the shell and man look for it. scripts/tarball.sh packs
# its files only, so unpacking leaves the prefix's own directories as they are.
tarball() { # arch binary
  local dir=rigcheck-$version-$1-linux stage=$work/stage
  rm -rf "$stage"
  mkdir -p "$stage/$dir/bin" "$stage/$dir/share/man/man1" "$stage/$dir/share/doc/rigcheck/schema" \
    "$stage/$dir/share/doc/rigcheck/docs/schema" \
    "$stage/$dir/share/bash-completion/completions" "$stage/$dir/share/zsh/site-functions" \
    "$stage/$dir/share/fish/vendor_completions.d"
  cp "$2" "$stage/$dir/bin/rigcheck"
  cp "$gen"/man/* "$stage/$dir/share/man/man1/"
  cp README.md LICENSE-MIT LICENSE-APACHE "$stage/$dir/share/doc/rigcheck/"
  cp docs/schema/*.schema.json "$stage/$dir/share/doc/rigcheck/schema/"
  cp docs/*.md "$stage/$dir/share/doc/rigcheck/docs/"
  cp docs/schema/*.schema.json "$stage/$dir/share/doc/rigcheck/docs/schema/"
  cp "$gen/completions/rigcheck.bash" "$stage/$dir/share/bash-completion/completions/rigcheck"
  cp "$gen/completions/_rigcheck" "$stage/$dir/share/zsh/site-functions/"
  cp "$gen/completions/rigcheck.fish" "$stage/$dir/share/fish/vendor_completions.d/"
  find "$stage" -type d -exec chmod 755 {} +
  find "$stage" -type f -exec chmod 644 {} +
  chmod 755 "$stage/$dir/bin/rigcheck"
  "$src/scripts/tarball.sh" "$stage" "$dir" "$out/$dir.tar.gz"
  rm -rf "$stage"
}
step "rigcheck-$version-x86_64-linux.tar.gz"
tarball x86_64 "$linux_x86"
step "rigcheck-$version-aarch64-linux.tar.gz"
tarball aarch64 "$linux_arm"

step "rigcheck-$version-x86_64-windows.zip"
python3 - "$out/rigcheck-$version-x86_64-windows.zip" "rigcheck-$version-x86_64-windows" "$SOURCE_DATE_EPOCH" \
  "$windows" README.md LICENSE-MIT LICENSE-APACHE <<'EOF'
# One folder with rigcheck.exe, the README and the licences, the JSON Schemas under
# schema/ and docs/; each entry's time is the commit's and its mode fixed, so the zip's bytes depend on
# nothing but the files.
import glob, os, sys, time, zipfile
path, folder, epoch, *files = sys.argv[1:]
stamp = time.gmtime(max(int(epoch), 315532800))[:6]  # zip times start in 1980
entries = [(f, os.path.basename(f)) for f in files]
entries += [(f, f"schema/{os.path.basename(f)}") for f in sorted(glob.glob("docs/schema/*.schema.json"))]
# docs/ as in the source, where the README's links find it.
entries += [(f, f) for f in sorted(glob.glob("docs/*.md") + glob.glob("docs/schema/*.schema.json"))]
with zipfile.ZipFile(path, "w") as z:
    for f, name in entries:
        info = zipfile.ZipInfo(f"{folder}/{name}", stamp)
        info.create_system = 3
        info.external_attr = (0o100755 if f.endswith(".exe") else 0o100644) << 16
        info.compress_type = zipfile.ZIP_DEFLATED
        with open(f, "rb") as data:
            z.writestr(info, data.read(), compresslevel=9)
EOF

cd "$out"
sha256sum -- *.deb *.rpm *.tar.gz *.zip >SHA256SUMS
step "done: $out"
ls -l --time-style=+ "$out" | tail -n +2
cat SHA256SUMS
